"""One player across the clubs: the federation's persons and the roster names linked to them.

- persons_sync: every roster name of the member clubs that has an account or has played
  gets a person (the account's person where there is one, else a person of its own), in a
  few bulk queries whatever the size of the rosters.
- roster_name_for: the host club's roster name for a person (his linked name, the name of
  his account, or a new guest name), for the open events and the series' finals.
- Proposals: an officer proposes that a roster name is a person; the owner of every club
  concerned confirms (proposal_decide), one refusal refuses it. Confirmed, the name's link
  moves to the person and a person left without names is merged into him.
- persons_merge (proposals for each of the other's names), person_split (at once).

Every change of links writes LinkEvent rows and sends federation.signals.counting_changed.
Each function runs in one transaction and raises FederationError (a ServiceError) with a
message the user can read; nothing is saved when it does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from club.errors import ServiceError
from club.models import Club, Membership, Player, Role
from club.names import NAME_MAX_LENGTH, InvalidName, name_key, normalise_name, sort_key
from federation.models import (
    Federation,
    LinkAction,
    LinkEvent,
    LinkProposal,
    MemberClub,
    MemberState,
    Person,
    PersonLink,
    ProposalState,
)
from federation.signals import counting_changed
from scoring.models import Seat


class PersonError(ServiceError):
    """A change of the federation's persons or links that its rules do not allow."""


#: The names one merge may move (a person has a name or two per club).
MERGE_NAMES_MAX = 50
#: Numbers tried after a guest name that clashes ("Anna 2" ... ), past "(his club)".
GUEST_NUMBERS_MAX = 100


def _lock(federation: Federation) -> Federation:
    """Serialise the changes to one federation's persons and links."""
    return Federation.objects.select_for_update().get(pk=federation.pk)


def _actor(user: AbstractBaseUser | None) -> AbstractBaseUser | None:
    return user if user is not None and user.is_authenticated else None


def _event(
    federation: Federation,
    person: Person,
    player: Player | None,
    action: str,
    *,
    actor: AbstractBaseUser | None,
    other: Person | None = None,
    club_name: str | None = None,
) -> LinkEvent:
    """One line of the person's link history, the name as it stands now."""
    return LinkEvent(
        federation=federation,
        person=person,
        player=player,
        player_name=player.name if player is not None else "",
        club_name=(club_name if club_name is not None else player.club.name if player else "")[
            :120
        ],
        action=action,
        other=other,
        actor=_actor(actor),
    )


def _changed(federation: Federation) -> None:
    counting_changed.send(sender=Person, federation=federation)


def member_club_ids(federation: Federation) -> set[int]:
    return set(
        MemberClub.objects.filter(federation=federation, state=MemberState.MEMBER).values_list(
            "club_id", flat=True
        )
    )


def _new_person(federation: Federation, name: str, user: AbstractBaseUser | None) -> Person:
    """A person for bulk_create (save() is skipped, so the keys are filled here)."""
    return Person(
        federation=federation,
        name=name,
        name_key=name_key(name),
        sort_key=sort_key(name),
        user=user,
    )


# Linking by the account, for every roster name the federation meets


@transaction.atomic
def persons_sync(
    federation: Federation,
    clubs: Iterable[Club] | None = None,
    *,
    actor: AbstractBaseUser | None = None,
) -> int:
    """Give a person to every roster name of the member clubs (or of `clubs`) that has an
    account or sat at a pulka, and has none in this federation yet: the person of the same
    account where there is one, else a new person named as the roster name (with its
    account). Returns how many names it linked. A handful of queries, in bulk.
    """
    federation = _lock(federation)
    club_ids = member_club_ids(federation) if clubs is None else {club.pk for club in clubs}
    if not club_ids:
        return 0
    linked = PersonLink.objects.filter(federation=federation, player=OuterRef("pk"))
    played = Seat.objects.filter(player=OuterRef("pk"))
    players = list(
        Player.objects.filter(club_id__in=club_ids)
        .filter(Q(user__isnull=False) | Exists(played))
        .exclude(Exists(linked))
        .select_related("club", "user")
        .order_by("club_id", "pk")
    )
    if not players:
        return 0
    users = {player.user_id for player in players if player.user_id is not None}
    by_user = {
        person.user_id: person
        for person in Person.objects.filter(
            federation=federation, user_id__in=users, merged_into__isnull=True
        )
    }
    new: list[Person] = []
    person_of: list[Person] = []
    for player in players:
        person = by_user.get(player.user_id) if player.user_id is not None else None
        if person is None:
            person = _new_person(federation, player.name, player.user)
            new.append(person)
            if player.user_id is not None:
                by_user[player.user_id] = person
        person_of.append(person)
    Person.objects.bulk_create(new)
    now = timezone.now()
    PersonLink.objects.bulk_create(
        PersonLink(
            federation=federation,
            person=person,
            player=player,
            linked_by=_actor(actor),
            linked_at=now,
        )
        for player, person in zip(players, person_of, strict=True)
    )
    LinkEvent.objects.bulk_create(
        _event(federation, person, player, LinkAction.AUTO, actor=actor)
        for player, person in zip(players, person_of, strict=True)
    )
    _changed(federation)
    return len(players)


# A host club's roster name for a person


def _guest_name(club: Club, person: Person) -> str:
    """The person's name for a new roster name of `club`: his name, else with his club's
    name in brackets, else with a number, whichever the roster does not have yet."""
    try:
        base = normalise_name(person.name)
    except InvalidName as exc:
        raise PersonError(exc.message) from exc
    home = (
        PersonLink.objects.filter(person=person)
        .exclude(player__club=club)
        .select_related("player__club")
        .order_by("linked_at", "pk")
        .first()
    )
    candidates = [base]
    if home is not None:
        suffix = f" ({home.player.club.name})"
        candidates.append(base[: max(1, NAME_MAX_LENGTH - len(suffix))].rstrip() + suffix)
    for n in range(2, GUEST_NUMBERS_MAX + 2):
        suffix = f" {n}"
        candidates.append(base[: NAME_MAX_LENGTH - len(suffix)].rstrip() + suffix)
    keys = {name_key(name): name for name in candidates}
    taken = set(
        Player.objects.filter(club=club, name_key__in=list(keys)).values_list("name_key", flat=True)
    )
    for name in candidates:
        if name_key(name) not in taken:
            return name
    raise PersonError(
        _("%(club)s has too many players called %(name)s: rename one of them first.")
        % {"club": club.name, "name": base}
    )


@transaction.atomic
def roster_name_for(*, club: Club, person: Person, user: AbstractBaseUser | None = None) -> Player:
    """The host club's roster name for this person: his linked name in that club; else the
    club's roster name of his account (the person's, or `user`); else a new guest name in
    that club, named as the person (club.names.normalise_name) and made unique with
    " (<his club>)" or a number. The name is linked to the person (PersonLink, LinkEvent)."""
    federation = _lock(person.federation)
    mine = (
        PersonLink.objects.filter(federation=federation, person=person, player__club=club)
        .select_related("player")
        .order_by("pk")
        .first()
    )
    if mine is not None:
        return mine.player
    account = person.user_id or (user.pk if user is not None and user.is_authenticated else None)
    # The club's row serialises the roster (club.services does the same).
    Club.objects.select_for_update().filter(pk=club.pk).first()
    player = None
    if account is not None:
        player = Player.objects.filter(club=club, user_id=account).select_related("club").first()
    if player is not None:
        if PersonLink.objects.filter(federation=federation, player=player).exists():
            return player  # another person's name: a proposal settles who is who
    else:
        player = Player.objects.create(club=club, name=_guest_name(club, person))
    PersonLink.objects.create(federation=federation, person=person, player=player)
    _event(federation, person, player, LinkAction.AUTO, actor=user).save()
    _changed(federation)
    return player


# Proposals: "roster name X is person P", confirmed by the clubs' owners


def owned_club_ids(user: AbstractBaseUser, club_ids: Iterable[int]) -> set[int]:
    """Which of these clubs the user owns (a superuser: all of them)."""
    club_ids = set(club_ids)
    if not user.is_authenticated:
        return set()
    if user.is_superuser:
        return club_ids
    return set(
        Membership.objects.filter(user=user, role=Role.OWNER, club_id__in=club_ids).values_list(
            "club_id", flat=True
        )
    )


def _person_of(federation: Federation, person: Person) -> Person:
    person = (
        Person.objects.filter(federation=federation, pk=person.pk).select_related("user").first()
    )
    if person is None or person.merged_into_id is not None:
        raise PersonError(_("This person was merged into another: start from his page."))
    return person


def _left_club(player: Player) -> PersonError:
    return PersonError(
        _("%(club)s is not a member of the federation: its roster names are not linked.")
        % {"club": player.club.name}
    )


@transaction.atomic
def proposal_create(
    *, federation: Federation, person: Person, player: Player, actor: AbstractBaseUser
) -> LinkProposal:
    """An officer proposes that the roster name `player` is `person`. The owners of the
    clubs concerned (the name's club and the clubs of the person's names) confirm it, except
    the proposer's own clubs (proposing is his confirmation); with none left to ask, the
    link moves at once."""
    federation = _lock(federation)
    person = _person_of(federation, person)
    player = Player.objects.select_related("club").get(pk=player.pk)
    members = member_club_ids(federation)
    if player.club_id not in members:
        raise _left_club(player)
    link = PersonLink.objects.filter(federation=federation, player=player).first()
    if link is not None and link.person_id == person.pk:
        raise PersonError(
            _("%(name)s of %(club)s is already %(person)s's name.")
            % {"name": player.name, "club": player.club.name, "person": person.name}
        )
    if LinkProposal.objects.filter(
        federation=federation, player=player, state=ProposalState.OPEN
    ).exists():
        raise PersonError(
            _("A proposal for %(name)s of %(club)s already waits for the clubs.")
            % {"name": player.name, "club": player.club.name}
        )
    concerned = {player.club_id} | set(
        PersonLink.objects.filter(person=person).values_list("player__club_id", flat=True)
    )
    concerned &= members
    confirmed = owned_club_ids(actor, concerned)
    proposal = LinkProposal.objects.create(
        federation=federation,
        person=person,
        player=player,
        clubs_awaiting=sorted(concerned - confirmed),
        clubs_confirmed=sorted(confirmed),
        proposed_by=_actor(actor),
    )
    _event(federation, person, player, LinkAction.PROPOSED, actor=actor).save()
    if not proposal.clubs_awaiting:
        _apply(proposal, actor)
    return proposal


def _locked_proposal(proposal: LinkProposal) -> LinkProposal:
    _lock(proposal.federation)
    proposal = LinkProposal.objects.select_related("person", "player__club", "federation").get(
        pk=proposal.pk
    )
    if proposal.state != ProposalState.OPEN:
        raise PersonError(_("This proposal is decided already."))
    return proposal


def _close(proposal: LinkProposal, state: str) -> None:
    proposal.state = state
    proposal.decided_at = timezone.now()
    proposal.save(update_fields=["state", "decided_at", "clubs_awaiting", "clubs_confirmed"])


@transaction.atomic
def proposal_decide(
    *, proposal: LinkProposal, actor: AbstractBaseUser, confirm: bool
) -> LinkProposal:
    """A club's owner confirms or refuses the proposal, for every awaiting club he owns.
    The last confirmation moves the link; one refusal refuses the proposal."""
    proposal = _locked_proposal(proposal)
    mine = owned_club_ids(actor, proposal.clubs_awaiting)
    if not mine:
        raise PersonError(_("No club of yours is asked about this proposal."))
    if proposal.player.club_id not in member_club_ids(proposal.federation):
        _refuse(proposal, actor)
        raise _left_club(proposal.player)
    if not confirm:
        _refuse(proposal, actor)
        return proposal
    proposal.clubs_awaiting = sorted(set(proposal.clubs_awaiting) - mine)
    proposal.clubs_confirmed = sorted(set(proposal.clubs_confirmed) | mine)
    if proposal.clubs_awaiting:
        proposal.save(update_fields=["clubs_awaiting", "clubs_confirmed"])
    else:
        _apply(proposal, actor)
    return proposal


def _refuse(proposal: LinkProposal, actor: AbstractBaseUser | None) -> None:
    _close(proposal, ProposalState.REFUSED)
    _event(
        proposal.federation, proposal.person, proposal.player, LinkAction.REFUSED, actor=actor
    ).save()


@transaction.atomic
def proposal_withdraw(*, proposal: LinkProposal, actor: AbstractBaseUser) -> LinkProposal:
    """An officer takes back a proposal that still waits."""
    proposal = _locked_proposal(proposal)
    _close(proposal, ProposalState.WITHDRAWN)
    return proposal


def proposals_refuse_for_club(
    federation: Federation, club: Club, *, actor: AbstractBaseUser | None
) -> int:
    """A club left: the open proposals for its names, or waiting for its owner, are
    refused (inside the caller's transaction). Returns how many."""
    refused = 0
    open_ones = LinkProposal.objects.filter(
        federation=federation, state=ProposalState.OPEN
    ).select_related("person", "player__club", "federation")
    for proposal in open_ones:
        if proposal.player.club_id == club.pk or club.pk in proposal.clubs_awaiting:
            _refuse(proposal, actor)
            refused += 1
    return refused


def _apply(proposal: LinkProposal, actor: AbstractBaseUser | None) -> None:
    """Every club confirmed: the name's link moves to the proposal's person; the person it
    leaves with no names is merged into him."""
    federation, person, player = proposal.federation, proposal.person, proposal.player
    link = PersonLink.objects.filter(federation=federation, player=player).first()
    left = None
    if link is None:
        PersonLink.objects.create(
            federation=federation, person=person, player=player, linked_by=_actor(actor)
        )
    else:
        left = Person.objects.get(pk=link.person_id)
        link.person = person
        link.linked_by = _actor(actor)
        link.linked_at = timezone.now()
        link.save(update_fields=["person", "linked_by", "linked_at"])
    _close(proposal, ProposalState.DONE)
    events = [_event(federation, person, player, LinkAction.CONFIRMED, actor=actor, other=left)]
    if left is not None and not PersonLink.objects.filter(person=left).exists():
        events += _merge(federation, left, person, actor)
    LinkEvent.objects.bulk_create(events)
    _changed(federation)


def _merge(
    federation: Federation, gone: Person, kept: Person, actor: AbstractBaseUser | None
) -> list[LinkEvent]:
    """`gone` has no names left: he is merged into `kept` (his account too, where `kept`
    has none); his open proposals are withdrawn. The history lines to write."""
    user = gone.user
    gone.merged_into = kept
    gone.save(update_fields=["merged_into"])
    if kept.user_id is None and user is not None:
        kept.user = user
        kept.save(update_fields=["user"])
    LinkProposal.objects.filter(person=gone, state=ProposalState.OPEN).update(
        state=ProposalState.WITHDRAWN, decided_at=timezone.now()
    )
    return [
        _event(federation, gone, None, LinkAction.MERGED, actor=actor, other=kept, club_name=""),
        _event(federation, kept, None, LinkAction.MERGED, actor=actor, other=gone, club_name=""),
    ]


# Merging and splitting


@transaction.atomic
def persons_merge(
    *, federation: Federation, person: Person, other: Person, actor: AbstractBaseUser
) -> list[LinkProposal]:
    """Propose that `other` is `person`: a proposal for each of other's names (the clubs
    confirm them as any proposal); once the last moves, `other` is merged into `person`.
    A person with no names at all is merged at once."""
    federation = _lock(federation)
    person = _person_of(federation, person)
    other = _person_of(federation, other)
    if other.pk == person.pk:
        raise PersonError(_("Choose another person: a person is already himself."))
    links = list(
        PersonLink.objects.filter(person=other)
        .select_related("player__club")
        .order_by("pk")[: MERGE_NAMES_MAX + 1]
    )
    if len(links) > MERGE_NAMES_MAX:
        raise PersonError(
            _("%(name)s has more than %(max)s roster names: split some off first.")
            % {"name": other.name, "max": MERGE_NAMES_MAX}
        )
    if not links:
        LinkEvent.objects.bulk_create(_merge(federation, other, person, actor))
        _changed(federation)
        return []
    return [
        proposal_create(federation=federation, person=person, player=link.player, actor=actor)
        for link in links
    ]


@transaction.atomic
def person_split(
    *,
    federation: Federation,
    person: Person,
    players: Sequence[Player],
    actor: AbstractBaseUser,
) -> Person:
    """Move the chosen names of a person to a new person, at once (a name linked wrongly;
    one name split off is an unlink). The person keeps at least one name. His account goes
    with the names when only they are the account's."""
    federation = _lock(federation)
    person = _person_of(federation, person)
    chosen = {player.pk for player in players}
    links = list(PersonLink.objects.filter(person=person).select_related("player__club"))
    moving = [link for link in links if link.player_id in chosen]
    staying = [link for link in links if link.player_id not in chosen]
    if not moving:
        raise PersonError(_("Choose the roster names to split off."), field="players")
    if not staying:
        raise PersonError(
            _("A person keeps at least one roster name: leave one of them."), field="players"
        )
    user = None
    if person.user_id is not None:
        moves_account = any(link.player.user_id == person.user_id for link in moving)
        stays_account = any(link.player.user_id == person.user_id for link in staying)
        if moves_account and not stays_account:
            user = person.user
            person.user = None
            person.save(update_fields=["user"])
    first = moving[0].player
    new = Person.objects.create(federation=federation, name=first.name, user=user)
    PersonLink.objects.filter(pk__in=[link.pk for link in moving]).update(
        person=new, linked_by=_actor(actor), linked_at=timezone.now()
    )
    events = []
    for link in moving:
        events.append(
            _event(federation, person, link.player, LinkAction.SPLIT, actor=actor, other=new)
        )
        events.append(
            _event(federation, new, link.player, LinkAction.SPLIT, actor=actor, other=person)
        )
    LinkEvent.objects.bulk_create(events)
    LinkProposal.objects.filter(
        federation=federation, person=person, state=ProposalState.OPEN, player__in=chosen
    ).update(state=ProposalState.WITHDRAWN, decided_at=timezone.now())
    _changed(federation)
    return new
