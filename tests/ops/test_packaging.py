"""Packaging metadata (issue 13 item 10): an SPDX license expression, authors, classifiers, and
no setuptools warning when the metadata is built."""

import email.parser
import subprocess
import sys
import tomllib

from tests.ops.support import ROOT

BUILD = ("import sys, setuptools.build_meta as backend; "
         "print(backend.prepare_metadata_for_build_wheel(sys.argv[1]))")


def test_the_metadata_builds_without_a_warning(tmp_path):
    proc = subprocess.run([sys.executable, "-W", "error", "-c", BUILD, str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Warning" not in proc.stderr and "deprecated" not in proc.stderr.lower(), proc.stderr[-3000:]
    metadata = email.parser.Parser().parsestr((tmp_path / proc.stdout.split()[-1] / "METADATA").read_text())
    assert metadata["License-Expression"] == "LicenseRef-Proprietary" and "License" not in metadata
    assert metadata["Author"] and metadata["Requires-Python"] == ">=3.11"
    classifiers = metadata.get_all("Classifier")
    assert "Programming Language :: Python :: 3.11" in classifiers and "Private :: Do Not Upload" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")]      # PEP 639: the expression says it


def test_the_build_asks_for_a_setuptools_that_reads_the_expression():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["build-system"]["requires"] == ["setuptools>=77"]
    assert isinstance(project["project"]["license"], str)
