"""`manage.py pulka_worker`: db_worker that starts itself again after a lost database, and
writes a heartbeat (competition.worker)."""

from __future__ import annotations

import logging
import signal
from argparse import ArgumentParser, ArgumentTypeError
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django_tasks_db.management.commands.db_worker import valid_backend_name, valid_interval

from competition.worker import HEARTBEAT_SECONDS, Supervisor, default_name, uses_worker


class Command(BaseCommand):
    help = (
        "Run the background worker (re-rating, prepared files): db_worker, started again "
        "after a database failure, with a heartbeat the owner's background page reads."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--queue-name",
            default="default,files",
            help="The queues to work on, separated by commas (default: %(default)s).",
        )
        parser.add_argument(
            "--name",
            default="",
            help="The worker's name, unique among the workers running at once "
            "(default: the host and the queues).",
        )
        parser.add_argument("--backend", default="default", help="(default: %(default)s)")
        parser.add_argument(
            "--interval",
            default=1.0,
            type=valid_interval,
            help="Seconds between two looks at an empty queue (default: %(default)s).",
        )
        parser.add_argument(
            "--heartbeat",
            default=HEARTBEAT_SECONDS,
            type=valid_interval,
            help="Seconds between two heartbeats (default: %(default)s).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not uses_worker():
            raise CommandError(
                "The tasks run inside the requests (TASKS_BACKEND is not database): "
                "there is nothing for a worker to do."
            )
        try:
            backend_name = valid_backend_name(options["backend"])
        except ArgumentTypeError as exc:
            raise CommandError(str(exc)) from exc
        queues = [name.strip() for name in options["queue_name"].split(",") if name.strip()]
        if not queues:
            raise CommandError("Name at least one queue, e.g. --queue-name default,files")
        if options["verbosity"] >= 1:
            for name in ("competition.worker", "django_tasks", "django_tasks_db"):
                logging.getLogger(name).setLevel(logging.INFO)
        supervisor = Supervisor(
            queues=queues,
            name=options["name"] or default_name(queues),
            backend_name=backend_name,
            interval=options["interval"],
            heartbeat=options["heartbeat"],
        )
        taken = supervisor.name_taken()
        if taken:
            raise CommandError(f"Not started: {taken}. Give this one another --name.")
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, supervisor.handle_signal)
        self.stdout.write(f"Worker {supervisor.name} on {', '.join(queues)}")
        supervisor.run()
