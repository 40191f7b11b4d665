"""User-facing error types shared by the toolkit.

A `UserError` is a problem with the user's input (a file, a flag, a dataset). The CLI prints its
message, one line per problem, and exits with status 2; it never prints a traceback for one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One problem in an input file: where it is, which field, and what is wrong."""

    file: str
    where: str  # "line 12", "apps[3].facets[1]", "" for the whole file
    field: str
    message: str

    def __str__(self) -> str:
        parts = [self.file]
        if self.where:
            parts.append(self.where)
        if self.field:
            parts.append(self.field)
        return ": ".join(parts) + f": {self.message}"


class UserError(Exception):
    """An error caused by user input; printed without a traceback."""


class ValidationError(UserError):
    """One or more problems found while validating an input file."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
