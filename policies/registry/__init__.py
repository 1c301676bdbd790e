"""An embedded checkpoint registry: learned opponents by name, version and alias, with no server.

A registry is one directory (``./registry`` by default, or ``$MYTHZOO_REGISTRY``, or a path)::

    registry/
      index.sqlite                      the index (WAL mode): checkpoints, aliases, tags, ratings, evals
      checkpoints/<id>/weights.safetensors   the network's arrays (safetensors, numpy flavour)
      checkpoints/<id>/spec.json        what the arrays are: env + signature, arch, algo, steps, parent...
      tmp/                              saves in progress (and leftovers of interrupted ones)

Refs name a policy: ``random`` / ``heuristic`` (baselines, served by :mod:`mythzoo.policies.refs`),
``<name>@<alias>``, ``<name>:<version>``, ``<name>`` (its latest version), or a checkpoint id or a
unique id prefix (4+ hex digits). ``latest`` is the automatic alias of a name's highest version;
any other alias (``best``, ``champion``...) is set and moved with :meth:`Registry.set_alias`.

Safety (details, and the tests that hold each guarantee, in docs/registry.md): nothing is
unpickled; every load re-hashes both files against the index; a save is staged in a locked
folder in ``tmp/`` and renamed and indexed in one transaction, so a killed process leaves the
whole entry or none; versions are assigned inside that transaction; cleanup deletes only under
the write lock and never a folder a live save holds; imports stream within size limits; a
read-only registry can be read; every failure is one line.

What lives where, lowest layer first. A module imports only modules listed before it (and, from
outside the package, :mod:`mythzoo.policies.base`, :mod:`~mythzoo.policies.neural`,
:mod:`~mythzoo.policies.baselines`, pydantic, numpy, safetensors; the CLI also :mod:`mythzoo.cli`'s
argument types). Nothing here imports torch, training, evaluation or the envs.

- :mod:`.errors`   the exceptions (``RegistryError`` and its kinds)
- :mod:`.refs`     ref parsing and the rules for names, aliases and tags
- :mod:`.fields`   the strict typed fields (pydantic) the formats are made of: int64 counts, finite numbers...
- :mod:`.records`  the frozen records handed out (``CheckpointInfo``, ``Rating``...) and the clock
- :mod:`.spec`     the formats as closed models (``spec.json``, ``manifest.json``) and their one-line
                   validation errors; arch, weights and role-size checks; the JSON the registry writes
- :mod:`.index`    the SQLite index: schema, transactions, every query (the only SQL)
- :mod:`.store`    the files: atomic staging and commit, verified reads, removal, gc, verify
- :mod:`.archive`  export files: the tar with its manifest, written and imported
- :mod:`.registry` the :class:`Registry` facade over all of the above
- :mod:`.cli`      ``mythzoo registry ...`` (imports only this package's public names)
"""

from __future__ import annotations

from mythzoo.policies.registry.archive import MANIFEST_FILE, MAX_MANIFEST_BYTES
from mythzoo.policies.registry.errors import EnvMismatchError, IntegrityError, RefError, RegistryError
from mythzoo.policies.registry.index import BUSY_TIMEOUT_S, INDEX_FILE, SCHEMA, SCHEMA_VERSION
from mythzoo.policies.registry.records import Alias, CheckpointInfo, EvalRecord, Rating, VerifyReport
from mythzoo.policies.registry.refs import LATEST, ParsedRef, parse_ref
from mythzoo.policies.registry.registry import DEFAULT_REGISTRY, REGISTRY_ENV_VAR, Registry, default_registry_path
from mythzoo.policies.registry.spec import (
    EXPORT_FORMAT, EXPORT_FORMAT_VERSION, SPEC_FILE, SPEC_FORMAT, SPEC_FORMAT_VERSION, WEIGHTS_FILE, CheckpointSpec, ExportManifest,
    validate_manifest, validate_spec,
)
from mythzoo.policies.registry.store import CHECKPOINTS_DIR, DEFAULT_GRACE_S, TMP_DIR, sha256_bytes

__all__ = [
    "BUSY_TIMEOUT_S", "CHECKPOINTS_DIR", "DEFAULT_GRACE_S", "DEFAULT_REGISTRY", "EXPORT_FORMAT", "EXPORT_FORMAT_VERSION",
    "INDEX_FILE", "LATEST", "MANIFEST_FILE", "MAX_MANIFEST_BYTES", "REGISTRY_ENV_VAR", "SCHEMA", "SCHEMA_VERSION",
    "SPEC_FILE", "SPEC_FORMAT", "SPEC_FORMAT_VERSION", "TMP_DIR", "WEIGHTS_FILE",
    "Alias", "CheckpointInfo", "CheckpointSpec", "ExportManifest", "EnvMismatchError", "EvalRecord", "IntegrityError", "ParsedRef", "Rating", "RefError",
    "Registry", "RegistryError", "VerifyReport", "default_registry_path", "parse_ref", "sha256_bytes", "validate_manifest", "validate_spec",
]
