import pytest


@pytest.fixture(autouse=True)
def _english_by_default(settings):
    """Tests read English labels unless they ask for a language (Accept-Language)."""
    settings.LANGUAGE_CODE = "en"
