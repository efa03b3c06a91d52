"""The package is not on PyPI, so no message of the library may advise installing it from there."""

import re

from conftest import REPO


def test_no_message_advises_a_pypi_install_of_this_package() -> None:
    # `pip install "ragmetrics-edu[embeddings]"` (record-embeddings' error once said so) cannot work;
    # the extra installs from a clone: pip install -e ".[embeddings]".
    advice = re.compile(r"pip install\s+\\?['\"]?ragmetrics[-_]edu")
    sources = sorted((REPO / "ragmetrics_edu").rglob("*.py"))
    assert len(sources) > 50
    found = [f"{path.relative_to(REPO)}:{number}" for path in sources
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if advice.search(line)]
    assert found == [], found


def test_the_embeddings_hint_names_the_install_from_a_clone() -> None:
    from ragmetrics_edu.embeddings.embedders import INSTALL_HINT

    assert 'pip install -e ".[embeddings]"' in INSTALL_HINT and "not on PyPI" in INSTALL_HINT
