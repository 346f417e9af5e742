"""A PEP 517 build backend with no dependency: it packs ``momo_payments/`` (pure Python) into a
wheel, or the project into an sdist, so that ``pip install client/python`` needs no registry.

The name, version and Python requirement come from ``pyproject.toml``'s ``[project]`` table.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "momo_payments"
SDIST_FILES = ("pyproject.toml", "README.md", "_build/wheel_backend.py")


def _project() -> dict[str, str]:
    # The [project] table's one-line strings; not tomllib, which Python 3.10 lacks.
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    table = re.search(r"^\[project\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S)
    if table is None:
        raise ValueError("pyproject.toml has no [project] table")
    values = dict(re.findall(r'^([a-z-]+) = "([^"]*)"$', table.group(1), re.M))
    return {"name": values["name"], "version": values["version"], "requires_python": values["requires-python"],
            "summary": values["description"]}


def _dist_name(project: dict[str, str]) -> str:
    return f"{project['name'].replace('-', '_')}-{project['version']}"


def _metadata(project: dict[str, str]) -> bytes:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {project['name']}\n"
        f"Version: {project['version']}\n"
        f"Summary: {project['summary']}\n"
        f"Requires-Python: {project['requires_python']}\n"
        "Description-Content-Type: text/markdown\n"
        "\n"
        f"{readme}"
    ).encode("utf-8")


def _package_files() -> list[Path]:
    return sorted(
        path
        for path in (ROOT / PACKAGE).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in (".py", ".typed")
    )


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={digest},{len(data)}"


def _write_wheel(wheel_directory: str, files: dict[str, bytes]) -> str:
    project = _project()
    dist = _dist_name(project)
    info = f"{dist}.dist-info"
    files = {
        **files,
        f"{info}/METADATA": _metadata(project),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: momo-payments wheel_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = [_record_line(name, data) for name, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode("utf-8")
    filename = f"{dist}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            wheel.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data)
    return filename


def build_wheel(wheel_directory: str, config_settings: object = None, metadata_directory: object = None) -> str:
    files = {path.relative_to(ROOT).as_posix(): path.read_bytes() for path in _package_files()}
    return _write_wheel(wheel_directory, files)


def build_editable(wheel_directory: str, config_settings: object = None, metadata_directory: object = None) -> str:
    # An editable install is a .pth file putting this folder on sys.path.
    return _write_wheel(wheel_directory, {f"{PACKAGE}.pth": f"{ROOT}\n".encode("utf-8")})


def build_sdist(sdist_directory: str, config_settings: object = None) -> str:
    dist = _dist_name(_project())
    filename = f"{dist}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as sdist:
        for path in [*(ROOT / name for name in SDIST_FILES), *_package_files()]:
            data = path.read_bytes()
            entry = tarfile.TarInfo(f"{dist}/{path.relative_to(ROOT).as_posix()}")
            entry.size = len(data)
            entry.mtime = 1577836800
            sdist.addfile(entry, io.BytesIO(data))
        pkg_info = _metadata(_project())
        entry = tarfile.TarInfo(f"{dist}/PKG-INFO")
        entry.size = len(pkg_info)
        sdist.addfile(entry, io.BytesIO(pkg_info))
    return filename
