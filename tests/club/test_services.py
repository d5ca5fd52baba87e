"""The club's rules, straight at the services (the views are tested in their own files)."""

import pytest

from club import services
from club.models import Membership, Player, Role
from club.services import ClubError
from tests.conftest import make_club, make_member, make_player, make_user


@pytest.mark.django_db
def test_club_create_makes_the_user_the_only_owner():
    user = make_user()

    club = services.club_create(name="Pulka", slug="pulka", city="", is_public=False, owner=user)

    assert list(club.memberships.values_list("user", "role")) == [(user.pk, Role.OWNER)]


@pytest.mark.django_db
def test_club_create_refuses_a_taken_slug_and_leaves_no_owner_behind():
    make_club(slug="pulka")
    user = make_user()

    with pytest.raises(ClubError, match="/c/pulka/") as error:
        services.club_create(name="Pulka", slug="pulka", city="", is_public=True, owner=user)

    assert error.value.field == "slug"
    assert not Membership.objects.filter(user=user).exists()


@pytest.mark.django_db
def test_club_update_changes_the_name_city_and_visibility_only():
    club = make_club(name="Kept", is_public=False)
    rules, target = dict(club.rules), club.pool_target

    services.club_update(club=club, name="New", city="Lviv", is_public=True)

    club.refresh_from_db()
    assert (club.name, club.city, club.is_public) == ("New", "Lviv", True)
    assert (club.rules, club.pool_target) == (rules, target)


@pytest.mark.django_db
def test_the_last_owner_stays_an_owner():
    club = make_club()
    only = make_member(club, Role.OWNER)

    with pytest.raises(ClubError, match="only owner"):
        services.member_set_role(membership=only, role=Role.SECRETARY)
    with pytest.raises(ClubError, match="only owner"):
        services.member_remove(membership=only)

    only.refresh_from_db()
    assert only.role == Role.OWNER


@pytest.mark.django_db
def test_with_two_owners_one_may_step_down_but_not_the_second():
    club = make_club()
    first, second = make_member(club, Role.OWNER), make_member(club, Role.OWNER)

    services.member_set_role(membership=first, role=Role.PLAYER)

    with pytest.raises(ClubError):
        services.member_remove(membership=second)
    assert Membership.objects.filter(club=club, role=Role.OWNER).get() == second


@pytest.mark.django_db
def test_member_set_role_refuses_an_unknown_role():
    membership = make_member(make_club(), Role.PLAYER)

    with pytest.raises(ClubError):
        services.member_set_role(membership=membership, role="king")


@pytest.mark.django_db
def test_player_add_tidies_the_spaces_and_ignores_case_when_checking_the_name():
    club = make_club()
    services.player_add(club=club, name="  Anna   Petrova ")

    with pytest.raises(ClubError, match="There is already a player called Anna Petrova."):
        services.player_add(club=club, name="anna petrova")

    assert list(Player.objects.filter(club=club).values_list("name", flat=True)) == ["Anna Petrova"]


@pytest.mark.django_db
def test_player_update_links_one_player_per_user_per_club():
    club = make_club()
    user = make_user()
    make_player(club, "Boris", user=user)
    anna = make_player(club, "Anna")

    with pytest.raises(ClubError, match="already linked to the player Boris") as error:
        services.player_update(player=anna, name="Anna", user=user, is_active=True)

    assert error.value.field == "username"
