"""The one error type a command raises for a user mistake."""


class UserError(Exception):
    """A mistake the user can fix: the message names what was wrong and what to do."""
