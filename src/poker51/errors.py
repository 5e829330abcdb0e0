"""Errors that the command line turns into a one-line message and exit code 2."""


class InputError(ValueError):
    """Bad user input: an unknown card, a bad config key, an illegal action.

    The message names what is wrong (the card, the config key, the rule), so the
    command line can print it on one line without a traceback.
    """
