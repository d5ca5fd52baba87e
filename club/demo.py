"""Demo data for `make run`: idempotent, so running it twice duplicates nothing."""

from django.contrib.auth import get_user_model

DEMO_PASSWORD = "pulka-demo"


def load_demo() -> list[tuple[str, str, str]]:
    user_model = get_user_model()
    admin, created = user_model.objects.get_or_create(
        username="admin", defaults={"is_staff": True, "is_superuser": True}
    )
    if created:
        admin.set_password(DEMO_PASSWORD)
        admin.save()
    return [("admin", DEMO_PASSWORD, "staff: the Django admin")]
