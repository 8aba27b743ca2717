"""Paths and helpers for the importer tests.

``data`` reads the project's own fixtures (tests/tournaments/data); ``sample`` reads the real files
other scoring programs wrote (``../shared/samples`` beside the repository) and skips when that folder
is absent.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
DATA = REPO_ROOT / "tests" / "tournaments" / "data"
SAMPLES = REPO_ROOT.parent / "shared" / "samples"
TEMPLATES = REPO_ROOT / "static" / "results-templates"


@pytest.fixture
def data() -> Callable[[str], bytes]:
    def read(name: str) -> bytes:
        return (DATA / name).read_bytes()

    return read


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def template() -> Callable[[str], bytes]:
    """A shipped CSV template or example from static/results-templates."""

    def read(name: str) -> bytes:
        return (TEMPLATES / name).read_bytes()

    return read


@pytest.fixture
def sample() -> Callable[[str], bytes]:
    def read(name: str) -> bytes:
        path = SAMPLES / name
        if not SAMPLES.is_dir():
            pytest.skip(f"the real sample files are not here ({SAMPLES} is absent)")
        if not path.is_file():
            pytest.skip(f"the sample {name} is absent from {SAMPLES}")
        return path.read_bytes()

    return read
