"""What scoring hears from the layer below: a club's slug, visibility, name or stake changed.

The live entries of the spectators' polls (scoring.live) say which club they belong to and
whether it is public, and their rendered answers show its name and stake; when that
changes, they must not answer for it any more.
"""

from __future__ import annotations

from django.db.models.signals import post_delete, pre_save
from django.dispatch import receiver

from club.models import Club
from scoring import live

# Who may see the live pages, and what of the club their cached answers show (its name, its
# stake under a pulka and an evening).
TENANT_FIELDS = {"slug", "is_public", "name", "whist_price", "currency"}


@receiver(pre_save, sender=Club, dispatch_uid="scoring.live.club_saving")
def club_saving(sender, instance: Club, update_fields=None, raw=False, **kwargs) -> None:
    if raw or instance.pk is None:
        return
    if update_fields is not None and not TENANT_FIELDS & set(update_fields):
        return
    # The slug as stored: a renamed club's polls under its old address must stop too.
    old = Club.objects.filter(pk=instance.pk).values_list("slug", flat=True).first()
    live.club_changed({instance.slug, old} - {None})


@receiver(post_delete, sender=Club, dispatch_uid="scoring.live.club_deleted")
def club_deleted(sender, instance: Club, **kwargs) -> None:
    live.club_changed({instance.slug})
