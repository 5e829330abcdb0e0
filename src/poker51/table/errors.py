"""The errors every engine raises: one :class:`IllegalAction` that names its rule, one
:class:`ReplayError` for a log that does not replay, one :class:`LogError` for a log file that
cannot be read.  All are :class:`~poker51.errors.InputError` (the command line reports them on
one line, exit 2).

An :class:`IllegalAction` carries ``.rule`` (the rule's text as a player reads it: a rule-card
point, a rule-book article) and ``.detail`` (what was wrong with this action).  Its message is
``"{detail} [{rule}]"`` unless the engine gives its own (the rule book's
``RuleError`` keeps ``"{action} breaks {article} (...): {detail}"``).  Given one string, the
rule is read off its trailing ``[...]``, so an engine that writes the message itself gets the
same attributes:

>>> err = IllegalAction("bet 3 is not an allowed size", "rule card, A hand 3: bet 1, 2, 4 or 8")
>>> str(err)
'bet 3 is not an allowed size [rule card, A hand 3: bet 1, 2, 4 or 8]'
>>> e2 = IllegalAction("no bet to answer [A hand 2: call or fold only facing a bet]")
>>> e2.detail, e2.rule
('no bet to answer', 'A hand 2: call or fold only facing a bet')
>>> IllegalAction("no hand in progress").rule
''
"""

from __future__ import annotations

from poker51.errors import InputError


def split_rule(message: str) -> tuple[str, str]:
    """``(detail, rule)`` of a message ``"detail [rule]"``; ``(message, "")`` without a rule.

    >>> split_rule("open 300 cents [A hand 2: open 1, 2, 4 or 8 jbits]")
    ('open 300 cents', 'A hand 2: open 1, 2, 4 or 8 jbits')
    """
    text = str(message)
    if text.endswith("]") and " [" in text:
        k = text.rindex(" [")
        return text[:k], text[k + 2 : -1]
    return text, ""


class IllegalAction(InputError):
    """An action the rules forbid; ``.rule`` names the rule, ``.detail`` what broke it.

    ``IllegalAction(detail, rule)`` writes the message ``"{detail} [{rule}]"``;
    ``IllegalAction(message)`` reads the rule off the message's trailing ``[...]`` (module
    docstring); ``message=`` sets a message of the engine's own (a subclass's format).
    """

    def __init__(self, detail: str, rule: str | None = None, *, message: str | None = None) -> None:
        if rule is None:
            detail, rule = split_rule(detail)
        self.detail, self.rule = str(detail), str(rule)
        if message is None:
            message = f"{self.detail} [{self.rule}]" if self.rule else self.detail
        super().__init__(message)

    def __reduce__(self):  # pickles by its fields (a subclass's own message survives)
        return (_rebuild, (type(self), self.__dict__.copy(), str(self)))


def _rebuild(cls: type[IllegalAction], fields: dict, message: str) -> IllegalAction:
    err = cls.__new__(cls)
    InputError.__init__(err, message)
    err.__dict__.update(fields)
    return err


def illegal(rule: str, detail: str) -> IllegalAction:
    """An :class:`IllegalAction` whose message ends with the rule it breaks (rule first, as the
    engines' call sites read)."""
    return IllegalAction(detail, rule)


class ReplayError(InputError):
    """A log that does not replay to itself, ends before a step it needs, or whose deck is
    not its seed's."""


class LogError(ReplayError):
    """A log file or text that cannot be read: not JSON lines, or not a known log format.
    The message names the file (or ``<log>``), the line and the column.  A log that cannot be
    read does not replay either, so it is a :class:`ReplayError`."""


__all__ = ["IllegalAction", "LogError", "ReplayError", "illegal", "split_rule"]
