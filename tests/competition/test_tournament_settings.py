"""The tournament's settings are listed once (competition.models.Tournament.SETTINGS): the
settings form, a backup's copy and the standings' cache version all follow that list."""

from __future__ import annotations

import copy
import datetime

import pytest
from django.db import models

from competition.backup import services as backup
from competition.models import Scoring, Tournament
from competition.tournament import services
from competition.tournament.forms import TYPED_APART, TournamentForm
from competition.tournament.standings import StandingsPage
from tests.conftest import make_club

pytestmark = pytest.mark.django_db

#: The columns of a tournament that no organiser sets: its keys, its lot's seed (drawn when it
#: is made), and what the services stamp. A new column goes here or into Tournament.SETTINGS.
NOT_SETTINGS = {"id", "club", "seed", "finished_at", "created_by", "created_at"}


@pytest.fixture
def cup() -> Tournament:
    club = make_club()
    made = services.tournament_create(
        club=club,
        created_by=None,
        name="Cup",
        round_count=3,
        scoring=Scoring.CAPS,
        caps=[["0", "1"], ["200", "1/10"], ["650", "0"]],
    )
    services.entries_add(tournament=made, names=["Anna", "Boris", "Vera", "Oleg"])
    return Tournament.objects.select_related("club").get(pk=made.pk)


def changed(field: models.Field, value: object) -> object:
    """Another value of the field's kind, whatever its value now."""
    if field.choices:
        return next(choice for choice, _label in field.choices if choice != value)
    if isinstance(field, models.BooleanField):
        return not value
    if isinstance(field, models.IntegerField):
        return (value or 0) + 1
    if isinstance(field, models.DateField):
        return value + datetime.timedelta(days=1)
    if isinstance(field, models.JSONField):
        return {**value, "changed": True} if isinstance(value, dict) else [*value, "changed"]
    if isinstance(field, models.CharField):
        return f"{value} (changed)"
    raise AssertionError(f"say how a {type(field).__name__} changes")


def test_every_column_of_a_tournament_is_a_setting_or_named_as_none():
    columns = {field.name for field in Tournament._meta.concrete_fields}

    assert columns - NOT_SETTINGS == set(Tournament.SETTINGS)
    assert len(Tournament.SETTINGS) == len(set(Tournament.SETTINGS))
    assert not set(Tournament.SETTINGS) & NOT_SETTINGS


@pytest.mark.parametrize("name", Tournament.SETTINGS)
def test_changing_any_setting_changes_the_standings_cache_version(cup, name):
    before = StandingsPage(cup).version
    other = copy.copy(cup)
    setattr(other, name, changed(Tournament._meta.get_field(name), getattr(cup, name)))

    assert StandingsPage(other).version != before
    assert StandingsPage(copy.copy(cup)).version == before  # the same settings, the same page


def test_the_seed_of_the_lot_changes_the_standings_cache_version_too(cup):
    before = StandingsPage(cup).version
    cup.seed += 1

    assert StandingsPage(cup).version != before


def posted_as_shown(form) -> dict[str, object]:
    """What the browser sends back for a form as it is shown (unchecked boxes send nothing)."""
    data: dict[str, object] = {}
    for bound in [*form, *form.rules_form]:
        value = bound.value()
        if value is False or value is None:
            continue
        data[bound.html_name] = "on" if value is True else value
    return data


def test_the_settings_form_sent_back_as_shown_gives_every_setting_unchanged(cup):
    shown = TournamentForm(club=cup.club, instance=cup)
    form = TournamentForm(posted_as_shown(shown), club=cup.club, instance=cup)

    assert form.is_valid(), form.errors
    settings = form.settings()
    assert set(settings) == set(Tournament.SETTINGS)
    assert set(Tournament.SETTINGS) - set(TYPED_APART) <= set(form.fields)
    assert settings == {name: getattr(cup, name) for name in Tournament.SETTINGS}


def test_a_backup_copies_every_setting(cup):
    (entry,) = backup.club_document(cup.club)["tournaments"]

    assert set(Tournament.SETTINGS) <= set(entry)
    assert entry["start"] == cup.start.isoformat()


def test_a_backup_from_before_a_setting_existed_restores_it_with_its_default(cup):
    pair = sorted(cup.entries.values_list("player_id", flat=True))[:2]
    Tournament.objects.filter(pk=cup.pk).update(
        stage_keep_totals=False, counted=True, tables="3", apart=[pair]
    )
    document = backup.club_document(cup.club)
    for name in ("stage_keep_totals", "counted", "team_best", "tables", "apart"):
        del document["tournaments"][0][name]

    backup.club_restore(document=document, slug="old-cup", name="Old cup", link_members=True)

    restored = Tournament.objects.get(club__slug="old-cup")
    assert (restored.stage_keep_totals, restored.counted, restored.team_best) == (
        True,
        False,
        None,
    )
    assert (restored.tables, restored.apart) == ("mixed", [])
    assert (restored.name, restored.start, restored.seed) == (cup.name, cup.start, cup.seed)
