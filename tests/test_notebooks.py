"""Every notebook in notebooks/ runs top to bottom (quick sizes: SMOOTHSENS_NOTEBOOK_QUICK=1).

Executes each committed notebook with nbclient in a fresh kernel; a cell that raises fails the test.
The committed files keep their full-size outputs; this test never writes them back.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))


def test_notebooks_folder_has_notebooks():
    assert len(PATHS) >= 3, f"expected the notebooks in {NOTEBOOKS}; found {[p.name for p in PATHS]}"


@pytest.mark.slow
@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_notebook_runs_in_quick_mode(path, monkeypatch):
    monkeypatch.setenv("SMOOTHSENS_NOTEBOOK_QUICK", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    assert nb.cells, f"{path.name} has no cells"
    client = NotebookClient(nb, timeout=150, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()  # raises CellExecutionError naming the cell if any cell raises
    # the quick switch reached the kernel (the setup cell prints the mode)
    outs = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "quick mode" in outs
