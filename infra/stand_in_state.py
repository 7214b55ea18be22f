"""Saves and loads the stand-in's whole state (every moto service in use:
DynamoDB tables, S3 buckets and objects, SES identities and sent mail, ...).

File format: one JSON header line, then one pickle of
[(module, attribute, {account: {region: backend}}), ...], where module and
attribute name the BackendDict each service lives in. One pickle for all
services keeps the objects they share shared (SESv2's backend uses SES's).

A snapshot is only loaded by the same snapshot format, moto version and
Python minor version that wrote it; anything else, or an unreadable file, is
reported and set aside (renamed *.rejected), and the stand-in starts empty.
Saving writes a temporary file next to the target, fsyncs it and renames it
over the target, so an interrupted save leaves the previous snapshot intact.

The snapshot is a pickle: load only files this machine wrote (.local/ is
the project's own, git-ignored, directory).
"""

from __future__ import annotations

import importlib
import io
import json
import os
import pickle
import sys
import time
from typing import Any

FORMAT = "legal-platform-stand-in-state"
FORMAT_VERSION = 1


def _header() -> dict[str, Any]:
    import moto

    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "moto": moto.__version__,
        "python": f"{sys.version_info.major}.{sys.version_info.minor}",
    }


def _limited_size_dict(items: dict) -> Any:
    """Rebuilds a moto LimitedSizeDict without re-running its O(n) size check
    per attribute (the item passed it when it was written)."""
    from moto.dynamodb.models.dynamo_type import LimitedSizeDict

    d = LimitedSizeDict.__new__(LimitedSizeDict)
    dict.update(d, items)
    return d


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        from moto.dynamodb.models.dynamo_type import LimitedSizeDict

        if type(obj) is LimitedSizeDict:
            return (_limited_size_dict, (dict(obj),))
        return NotImplemented


def _locate(bd: Any) -> tuple[str, str] | None:
    """(module, attribute) of the module-level BackendDict `bd`."""
    for name, mod in list(sys.modules.items()):
        if not name.startswith("moto.") or mod is None:
            continue
        for attr, value in list(vars(mod).items()):
            if value is bd:
                return name, attr
    return None


def _dump(services: list[tuple[str, str, dict]]) -> bytes:
    buf = io.BytesIO()
    _Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(services)
    return buf.getvalue()


def collect() -> tuple[list[tuple[str, str, dict]], list[str]]:
    """Every service in use, as (module, attribute, {account: {region: backend}})."""
    from moto.core.base_backend import BackendDict

    services, notes = [], []
    for bd in list(BackendDict._instances):  # the services that hold state
        where = _locate(bd)
        if where is None:
            notes.append(f"{bd.service_name}: not saved (its backend table was not found)")
            continue
        data = {account: dict(regions) for account, regions in bd.items()}
        services.append((where[0], where[1], data))
    return services, notes


def save(path: str, log: Any = print) -> bool:
    """Writes the state to `path` atomically. The caller holds the request lock."""
    started = time.monotonic()
    services, notes = collect()
    try:
        payload = _dump(services)
    except Exception:  # noqa: BLE001 - find which service cannot be saved, save the rest
        kept = []
        for svc in services:
            try:
                _dump([svc])
                kept.append(svc)
            except Exception as e:  # noqa: BLE001
                notes.append(f"{svc[0]}.{svc[1]}: not saved ({type(e).__name__}: {e})")
        services = kept
        try:
            payload = _dump(services)
        except Exception as e:  # noqa: BLE001
            log(f"stand-in: state NOT saved: {type(e).__name__}: {e}")
            return False
    header = dict(_header(), saved_at=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                  services=sorted({f"{m}.{a}" for m, a, _ in services}))
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(json.dumps(header).encode() + b"\n")
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        dir_fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError as e:
        log(f"stand-in: state NOT saved to {path}: {e}")
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False
    for note in notes:
        log(f"stand-in: {note}")
    log(f"stand-in: state saved to {path} ({len(payload) / 1e6:.1f} MB, "
        f"{len(services)} service(s), {time.monotonic() - started:.1f} s)")
    return True


def _reject(path: str, why: str, log: Any) -> None:
    aside = f"{path}.rejected"
    try:
        os.replace(path, aside)
        where = f"moved to {aside}"
    except OSError as e:
        where = f"could not be moved aside: {e}"
    log(f"stand-in: NOT loading the saved state {path}: {why}; starting empty ({where})")


def load(path: str, log: Any = print) -> bool:
    """Loads the state saved at `path` into moto, if it is usable. Never raises
    for a bad file: reports it, sets it aside and returns False."""
    from moto.core.base_backend import BackendDict

    if not os.path.exists(path):
        log(f"stand-in: no saved state at {path}; starting empty")
        return False
    started = time.monotonic()
    try:
        with open(path, "rb") as f:
            line = f.readline(64 * 1024)
            try:
                header = json.loads(line)
            except ValueError:
                _reject(path, "not a stand-in state file (no header)", log)
                return False
            want = _header()
            for field in ("format", "version", "moto", "python"):
                if not isinstance(header, dict) or header.get(field) != want[field]:
                    got = header.get(field) if isinstance(header, dict) else None
                    _reject(path, f"written with {field} {got!r}, this stand-in has {want[field]!r}", log)
                    return False
            services = pickle.load(f)
        targets = []
        for module, attr, data in services:
            bd = getattr(importlib.import_module(module), attr)
            if not isinstance(bd, BackendDict) or not isinstance(data, dict):
                raise ValueError(f"{module}.{attr} is not a moto backend")
            targets.append((bd, data))
    except Exception as e:  # noqa: BLE001 - a corrupt or foreign file must not stop the start
        _reject(path, f"unreadable ({type(e).__name__}: {e})", log)
        return False
    for bd, data in targets:
        for account, regions in data.items():
            per_account = bd[account]
            for region, backend in regions.items():
                dict.__setitem__(per_account, region, backend)
    log(f"stand-in: loaded the state saved at {header.get('saved_at')} from {path} "
        f"({len(targets)} service(s), {time.monotonic() - started:.1f} s)")
    return True
