"""Domain exceptions shared by every Crafter package.

The CLI turns any :class:`CrafterError` into one readable line and a non-zero
exit; the app shows it in the page. Each error carries where it happened (file,
line, column, component id, field) so the message can point at the fault.
"""

from __future__ import annotations


class CrafterError(Exception):
    """Base class for errors a user can act on (bad input, missing model...)."""

    def __init__(self, message: str, *, file: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = file

    def __str__(self) -> str:  # one line, file first when known
        return f"{self.file}: {self.message}" if self.file else self.message


class SpecError(CrafterError):
    """A FigureSpec that is malformed: names the component, field, line and column."""

    def __init__(
        self,
        message: str,
        *,
        component: str | None = None,
        field: str | None = None,
        line: int | None = None,
        column: int | None = None,
        file: str | None = None,
    ) -> None:
        super().__init__(message, file=file)
        self.component = component
        self.field = field
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = []
        if self.file:
            where.append(self.file)
        if self.line is not None:
            where.append(f"line {self.line}" + (f", column {self.column}" if self.column else ""))
        what = []
        if self.component:
            what.append(f"component '{self.component}'")
        if self.field:
            what.append(f"field '{self.field}'")
        head = ": ".join(x for x in (", ".join(where), " ".join(what)) if x)
        return f"{head}: {self.message}" if head else self.message

    def located(self, *, file: str | None = None, line: int | None = None, column: int | None = None) -> "SpecError":
        """Return a copy with location filled in where it was unknown."""
        return SpecError(
            self.message,
            component=self.component,
            field=self.field,
            line=self.line if self.line is not None else line,
            column=self.column if self.column is not None else column,
            file=self.file or file,
        )


class DSLSyntaxError(SpecError):
    """The DSL text does not parse: says what was found and what was expected."""


class RenderError(CrafterError):
    """A figure could not be laid out, rendered or exported."""


class InputError(CrafterError):
    """A user file (table, image, SVG) that cannot be read."""
