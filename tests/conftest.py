"""Keep Jupyter, IPython and matplotlib state out of $HOME while tests (and nbval) run."""

import os
import tempfile
from pathlib import Path

_STATE = Path(tempfile.mkdtemp(prefix="ragmetrics-tests-"))
for _var, _sub in (("JUPYTER_CONFIG_DIR", "jupyter-config"), ("JUPYTER_DATA_DIR", "jupyter-data"),
                   ("JUPYTER_RUNTIME_DIR", "jupyter-runtime"), ("IPYTHONDIR", "ipython"),
                   ("MPLCONFIGDIR", "matplotlib")):
    os.environ.setdefault(_var, str(_STATE / _sub))
os.environ.setdefault("MPLBACKEND", "Agg")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
