"""Register the bot's webhook with Telegram (setWebhook), with the secret it must send back."""

from __future__ import annotations

import re

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from club import telegram
from club.mail import site_url

# What Telegram accepts as a secret token.
SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")


class Command(BaseCommand):
    help = (
        "Tell Telegram to post the bot's updates to this site's webhook (or to URL), with "
        "TELEGRAM_WEBHOOK_SECRET as the secret token. Needs TELEGRAM_BOT_TOKEN."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "url", nargs="?", help="the webhook's address (default: the site's own, over HTTPS)"
        )

    def handle(self, *args, url: str | None, **options) -> None:
        if not telegram.enabled():
            raise CommandError("TELEGRAM_BOT_TOKEN is not set: Telegram is off on this site.")
        if not SECRET.fullmatch(settings.TELEGRAM_WEBHOOK_SECRET):
            raise CommandError("TELEGRAM_WEBHOOK_SECRET must be 1-256 letters, digits, '_' or '-'.")
        url = url or site_url(reverse("club:telegram-webhook"))
        try:
            telegram.set_webhook(url)
        except telegram.TelegramError as exc:
            raise CommandError(f"Telegram refused: {exc}") from exc
        self.stdout.write(f"Webhook set: {url}")
