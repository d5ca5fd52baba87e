"""What the pages that wait for background work say about the worker (competition.worker)."""

from __future__ import annotations

from django import template

from competition.worker import WorkerStatus, worker_status

register = template.Library()


@register.simple_tag
def background_worker() -> WorkerStatus:
    """`{% background_worker as worker %}`: is a worker running? One query, none when the
    tasks run inside the request."""
    return worker_status()
