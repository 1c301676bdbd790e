"""The :class:`Registry` facade: one object for saving, finding, loading and managing checkpoints.

It composes the lower layers (:mod:`.refs`, :mod:`.spec`, :mod:`.index`, :mod:`.store`,
:mod:`.archive`) and holds no logic of its own beyond argument handling and the order of steps.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mythzoo import __version__
from mythzoo.policies import neural
from mythzoo.policies.base import BasePolicy, EnvSpec
from mythzoo.policies.registry.archive import export_archive, import_archive
from mythzoo.policies.registry.errors import EnvMismatchError, RefError, RegistryError
from mythzoo.policies.registry.index import INDEX_FILE, Index
from mythzoo.policies.registry.records import Alias, CheckpointInfo, EvalRecord, Rating, VerifyReport, utc_now
from mythzoo.policies.registry.refs import check_alias, check_name, check_tag, is_checkpoint_id
from mythzoo.policies.registry.spec import (
    SPEC_FORMAT, SPEC_FORMAT_VERSION, WEIGHTS_FILE, check_role_sizes, dump_json, info_from_spec, json_value, validate_arch, validate_rating,
    validate_spec, validate_weights,
)
from mythzoo.policies.registry.store import DEFAULT_GRACE_S, Store, sha256_bytes

__all__ = ["DEFAULT_REGISTRY", "REGISTRY_ENV_VAR", "Registry", "default_registry_path"]

REGISTRY_ENV_VAR = "MYTHZOO_REGISTRY"
DEFAULT_REGISTRY = "registry"


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python number it holds (validation then sees an int or a float); anything else as is."""
    return value.item() if isinstance(value, np.generic) else value


def default_registry_path() -> Path:
    """``$MYTHZOO_REGISTRY`` if set, else ``./registry``."""
    return Path(os.environ.get(REGISTRY_ENV_VAR) or DEFAULT_REGISTRY)


class Registry:
    """A checkpoint registry in one directory: SQLite index + one folder per checkpoint."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, create: bool = True):
        """Open the registry at ``path`` (default :func:`default_registry_path`); ``create=False`` refuses a missing one."""
        self.path = Path(path) if path is not None else default_registry_path()
        self._index = Index(self.path)
        self._store = Store(self.path, self._index, hook=lambda stage: self._hook(stage))
        self.index_path = self._index.path
        self.checkpoints_path = self._store.checkpoints_path
        self.tmp_path = self._store.tmp_path
        if not create and not self.index_path.exists():
            raise RegistryError(f"no registry at {self.path} (no {INDEX_FILE}); register a checkpoint there first, or pass --registry / set ${REGISTRY_ENV_VAR}")
        if self.index_path.exists() and not self._index.writable():
            self._index.ensure_schema()  # opens it read-only: reads work, writes are refused with a RegistryError
            return
        self.path.mkdir(parents=True, exist_ok=True)
        self._store.create()
        self._index.ensure_schema()

    @property
    def read_only(self) -> bool:
        """True when this registry was opened read-only (its folder or index is not writable here)."""
        return self._index.read_only

    def __repr__(self) -> str:
        return f"Registry({str(self.path)!r})"

    def _hook(self, stage: str) -> None:
        """Called at each save stage (``staged``: files in tmp/; ``renamed``: folder in place, index not yet
        committed). Does nothing; tests replace it to kill a process mid-save."""

    # ------------------------------------------------------------ reading
    def resolve(self, ref: str) -> CheckpointInfo:
        """The checkpoint ``ref`` names (``RefError`` if none, ``ValueError`` for malformed text)."""
        with self._index.read() as tx:
            return tx.info(tx.resolve_id(ref))

    def list(self, name: str | None = None, *, env: str | None = None, tag: str | None = None) -> list[CheckpointInfo]:
        """Every checkpoint (of ``name``, for env ``env``, carrying ``tag``), by name then version."""
        clauses, params = [], []
        for clause, value in (("name = ?", name), ("env_name = ?", env), ("id IN (SELECT checkpoint_id FROM tags WHERE tag = ?)", tag)):
            if value is not None:
                clauses.append(clause)
                params.append(value)
        with self._index.read() as tx:
            return tx.infos(("WHERE " + " AND ".join(clauses)) if clauses else "", params)

    def names(self) -> list[str]:
        """Every checkpoint name in the registry, sorted."""
        with self._index.read() as tx:
            return tx.names()

    def aliases(self, name: str | None = None) -> list[Alias]:
        """The set aliases (of ``name``), by name then alias; ``latest`` is implicit and not listed."""
        with self._index.read() as tx:
            return tx.aliases(name)

    def lineage(self, ref: str) -> list[CheckpointInfo]:
        """The checkpoint, its parent, grandparent... up to the first one without a parent in this registry."""
        chain: list[CheckpointInfo] = []
        with self._index.read() as tx:
            info: CheckpointInfo | None = tx.info(tx.resolve_id(ref))
            seen: set[str] = set()
            while info is not None and info.id not in seen:
                chain.append(info)
                seen.add(info.id)
                found = tx.infos("WHERE id = ?", (info.parent,)) if info.parent else []
                info = found[0] if found else None
        return chain

    def children(self, ref: str) -> list[CheckpointInfo]:
        """Checkpoints whose parent is ``ref``."""
        with self._index.read() as tx:
            return tx.infos("WHERE parent_id = ?", (tx.resolve_id(ref),))

    def checkpoint_dir(self, checkpoint_id: str) -> Path:
        """The folder holding checkpoint ``checkpoint_id``'s files."""
        return self._store.checkpoint_dir(checkpoint_id)

    # --------------------------------------------------------- verified IO
    def load_weights(self, ref: str) -> dict[str, np.ndarray]:
        """The arrays of checkpoint ``ref``, after checking both files' sha256 against the index."""
        return self._store.read_verified(self.resolve(ref))[1]

    def spec(self, ref: str) -> dict[str, Any]:
        """The verified ``spec.json`` of checkpoint ``ref``."""
        return self._store.read_verified(self.resolve(ref))[0]

    def check_env(self, ref: str | CheckpointInfo, env: Any) -> CheckpointInfo:
        """Refuse (``EnvMismatchError``) a checkpoint made for another env name, signature or size."""
        info = ref if isinstance(ref, CheckpointInfo) else self.resolve(ref)
        spec = env if isinstance(env, EnvSpec) else EnvSpec.from_env(env)
        what = f"checkpoint {info.ref} ({info.id})"
        if info.env_name != spec.env_name or info.env_signature != spec.signature:
            raise EnvMismatchError(
                f"{what} was made for env {info.env_name!r} (signature {info.env_signature}), but this env is "
                f"{spec.env_name!r} (signature {spec.signature}); the observation or action layout differs, so "
                f"the network would misread it. Use a checkpoint trained on {spec.env_name} signature {spec.signature}."
            )
        check_role_sizes(spec, info.role, info.arch, EnvMismatchError, f"{what}: ")
        return info

    def load_policy(self, ref: str, env: Any, seed: int | None = None, *, deterministic: bool = True) -> BasePolicy:
        """A policy from checkpoint ``ref`` for ``env``; refuses another env/signature, verifies hashes."""
        info = self.check_env(ref, env)
        _, tensors, _, _ = self._store.read_verified(info)
        policy = neural.build_policy(tensors, info.arch, deterministic=deterministic, seed=seed, name=info.ref)
        policy.checkpoint_id = info.id  # type: ignore[attr-defined]
        return policy

    # -------------------------------------------------------------- writing
    def register(
        self,
        name: str,
        weights: Mapping[str, Any],
        arch: Mapping[str, Any],
        *,
        env_spec: EnvSpec | Any,
        algo: str,
        steps: int,
        parent: str | None = None,
        tags: Sequence[str] | None = None,
        role: str | None = None,
        metrics: Mapping[str, Any] | None = None,
    ) -> CheckpointInfo:
        """Save a new version of ``name``: weights + arch for ``env_spec`` (an ``EnvSpec`` or an env).

        ``parent`` is a ref to the checkpoint this one was trained from; ``role`` the agent-name
        prefix it plays (``None``: every agent); ``metrics`` free JSON kept in ``spec.json``.
        Atomic and safe to call from several processes at once.
        """
        check_name(name)
        spec_env = env_spec if isinstance(env_spec, EnvSpec) else EnvSpec.from_env(env_spec)
        arch = validate_arch(arch)
        tensors = {str(k): np.ascontiguousarray(np.asarray(v)) for k, v in weights.items()}
        validate_weights(tensors, arch)
        tag_list = sorted({check_tag(t) for t in (tags or ())})
        metrics_json = json_value(dict(metrics or {}), "metrics")
        parent_id = self.resolve(parent).id if parent is not None else None
        from safetensors.numpy import save

        weights_bytes = save(tensors)
        spec = {
            "format": SPEC_FORMAT,
            "format_version": SPEC_FORMAT_VERSION,
            "id": self._new_id(),
            "name": name,
            "env": {"name": spec_env.env_name, "signature": spec_env.signature, "config": json_value(spec_env.config, "env config")},
            "role": role,
            "algo": algo.strip() if isinstance(algo, str) else algo,
            "arch": arch,
            "steps": _plain(steps),
            "parent": parent_id,
            "created": utc_now(),
            "weights": {
                "file": WEIGHTS_FILE,
                "sha256": sha256_bytes(weights_bytes),
                "bytes": len(weights_bytes),
                "tensors": {k: {"dtype": str(v.dtype), "shape": list(v.shape)} for k, v in sorted(tensors.items())},
            },
            "metrics": metrics_json,
            "mythzoo_version": __version__,
        }
        validate_spec(spec)  # every field by type and range (steps fit an int64...) before anything is written
        check_role_sizes(spec_env, role, arch)
        staged = self._store.stage(spec, dump_json(spec), weights_bytes)
        staged.tags = tag_list
        try:
            if parent_id is not None:
                with self._index.read() as tx:
                    if not tx.exists(parent_id):
                        raise RefError(f"parent {parent!r} ({parent_id}) was removed while saving")
            self._store.commit([staged])
        finally:
            self._store.discard([staged])
        try:
            return self.resolve(spec["id"])
        except RefError:  # committed, then removed by another process already: what was saved
            return dataclasses.replace(info_from_spec(spec, staged.version, staged.spec_sha256), tags=tuple(tag_list))

    def _new_id(self) -> str:
        """A fresh random checkpoint id (12 hex digits, 48 bits) that the index does not hold."""
        with self._index.read() as tx:
            while True:
                cid = secrets.token_hex(6)
                if not tx.exists(cid):
                    return cid

    def set_alias(self, name: str, alias: str, ref: str | int) -> CheckpointInfo:
        """Point ``name@alias`` at ``ref`` (a ref, or a version number of ``name``); moves it if set.

        A string of digits is a version number unless it is a whole checkpoint id: ids are 12 hex
        digits, and about one in 280 of them has no letter in it.
        """
        check_alias(alias)
        with self._index.write() as tx:
            if isinstance(ref, str) and ref.strip().isdigit():
                if not (is_checkpoint_id(ref.strip()) and tx.exists(ref.strip())):
                    ref = int(ref)
            if isinstance(ref, (int, np.integer)) and not isinstance(ref, bool):
                ref = f"{name}:{int(ref)}"
            cid = tx.resolve_id(ref)
            info = tx.info(cid)
            if info.name != name:
                raise ValueError(f"{ref!r} is a checkpoint of {info.name!r}; an alias of {name!r} must point to a version of {name!r}")
            tx.set_alias(name, alias, cid, utc_now())
            return tx.info(cid)

    def remove_alias(self, name: str, alias: str) -> bool:
        """Delete ``name@alias``; False if it was not set."""
        check_alias(alias)
        with self._index.write() as tx:
            return tx.remove_alias(name, alias)

    def set_tags(self, ref: str, add: Sequence[str] = (), remove: Sequence[str] = ()) -> CheckpointInfo:
        """Add and remove free-form tags of checkpoint ``ref``."""
        adds, removes = [check_tag(t) for t in add], [check_tag(t) for t in remove]
        with self._index.write() as tx:
            cid = tx.resolve_id(ref)
            tx.add_tags(cid, adds)
            tx.remove_tags(cid, removes)
            return tx.info(cid)

    def remove(self, ref: str) -> CheckpointInfo:
        """Delete checkpoint ``ref``: its index rows (aliases, tags, ratings, evals) first, then its folder.

        Its version number is never reused; children keep their parent id (their lineage stops there).
        """
        with self._index.write() as tx:
            info = tx.info(tx.resolve_id(ref))
            tx.delete(info.id)
        self._store.remove_unindexed(info.id)
        return info

    # ------------------------------------------------------ ratings / evals
    def record_rating(
        self, ref: str, *, mu: float, sigma: float, games: int, num_players: int, env_name: str | None = None, ordinal: float | None = None
    ) -> Rating:
        """Store (replace) ``ref``'s rating for an env and player count; ordinal defaults to mu - 3 sigma."""
        with self._index.write() as tx:
            cid = tx.resolve_id(ref)
            rating = validate_rating(
                env_name=env_name or tx.info(cid).env_name, num_players=_plain(num_players), mu=_plain(mu), sigma=_plain(sigma),
                ordinal=0.0 if ordinal is None else _plain(ordinal), games=_plain(games), updated=utc_now(),
            )
            if ordinal is None:
                rating = dataclasses.replace(rating, ordinal=rating.mu - 3.0 * rating.sigma)
            tx.put_rating(cid, rating)
        return rating

    def ratings(self, ref: str) -> list[Rating]:
        """``ref``'s ratings, by env and player count."""
        with self._index.read() as tx:
            return tx.ratings(tx.resolve_id(ref))

    def record_eval(self, ref: str, results: Mapping[str, Any], *, name: str = "eval") -> EvalRecord:
        """Append an evaluation result (free JSON) to checkpoint ``ref``."""
        data = json_value(dict(results), "eval results")
        created = utc_now()
        with self._index.write() as tx:
            eval_id = tx.add_eval(tx.resolve_id(ref), str(name), created, data)
        return EvalRecord(eval_id, str(name), created, data)

    def evals(self, ref: str) -> list[EvalRecord]:
        """``ref``'s recorded evaluations, oldest first."""
        with self._index.read() as tx:
            return tx.evals(tx.resolve_id(ref))

    # --------------------------------------------------------- verify / gc
    def verify(self, ref: str | None = None, *, clean: bool = False, grace_s: float = DEFAULT_GRACE_S) -> VerifyReport:
        """Re-hash every file (of ``ref``, or all) and check the index against the folders.

        Errors (a hash mismatch, a missing file, a spec that disagrees with the index) fail it;
        leftovers (folders of interrupted saves or removals) are reported, and removed when
        ``clean`` (temp folders only once older than ``grace_s``).
        """
        cleaned = [str(p) for p in self.gc(grace_s=grace_s)] if clean and ref is None else []
        infos = [self.resolve(ref)] if ref is not None else self.list()
        report = self._store.verify(infos, whole=ref is None, grace_s=grace_s)
        report.cleaned = cleaned
        return report

    def gc(self, *, grace_s: float = DEFAULT_GRACE_S) -> list[Path]:
        """Remove leftovers: checkpoint folders the index does not name, and temp folders older than ``grace_s``."""
        return self._store.gc(grace_s=grace_s)

    # ------------------------------------------------------- export/import
    def export(self, ref: str, path: str | os.PathLike[str], *, with_lineage: bool = False) -> list[CheckpointInfo]:
        """Write checkpoint ``ref`` (and its ancestors if ``with_lineage``) to one tar file at ``path``.

        The tar holds ``manifest.json`` (every file's sha256 and size, tags, aliases, ratings,
        evals) and ``checkpoints/<id>/{weights.safetensors,spec.json}``; ``.tar.gz``/``.tgz``
        is gzipped. Files are verified before they are written; the tar appears atomically.
        """
        infos = self.lineage(ref) if with_lineage else [self.resolve(ref)]
        infos = infos[::-1]  # ancestors first: the order an import commits them in
        export_archive(self._store, self._index, infos, path)
        return infos

    def import_(self, path: str | os.PathLike[str]) -> list[CheckpointInfo]:
        """Add the checkpoints of an export file, all or none, after verifying every hash.

        Ids, specs, tags, ratings and evals are kept; each gets the next version of its name here
        (aliases are this registry's own and are not imported). Re-importing is a no-op.
        """
        ids = import_archive(self._store, path)
        with self._index.read() as tx:
            return [tx.info(cid) for cid in ids if tx.exists(cid)]  # (one removed meanwhile by another process is left out)
