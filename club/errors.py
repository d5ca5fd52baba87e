"""The one base class of the services' errors, for every layer of the house."""

from __future__ import annotations

from django import forms


class ServiceError(Exception):
    """A change the rules of the domain refuse, in words the user can read; nothing was saved.

    `field` names the form field it is about (None: the form as a whole).
    """

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def add_to_form(self, form: forms.BaseForm) -> None:
        """Show the problem on its field, or on the form when it has no such field."""
        form.add_error(self.field if self.field in form.fields else None, self.message)
