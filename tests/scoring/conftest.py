import pytest

from tests.conftest import make_evening, make_pulka, record
from tests.scoring.factories import PASS_OUT_ROUND


@pytest.fixture
def evening_a(club_a):
    return make_evening(club_a)


@pytest.fixture
def pulka(evening_a):
    """A running 3-player pulka to 10 in club A: Anna, Boris, Vera; Anna deals first."""
    return make_pulka(evening_a)


@pytest.fixture
def closed_pulka(evening_a):
    """A pulka to 2 whose three no-play sixes closed every pool: finished by itself."""
    pulka = make_pulka(evening_a, rules={"pool_target": 2})
    record(pulka, *PASS_OUT_ROUND)
    pulka.refresh_from_db()
    return pulka
