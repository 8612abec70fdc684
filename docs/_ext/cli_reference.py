"""The ``cli-reference`` directive: the command line's reference, read from its argument parser.

``gurps-character``'s commands and options are written once, as :mod:`argparse` calls in
``gurps_character.cli``; this directive walks the parser that ``build_parser()`` returns and writes a
section per command with its usage, description, arguments (option strings, metavar, choices,
default, help text) and epilog, so the reference cannot drift from what ``--help`` says.

Usage, in a MyST page::

    ```{cli-reference} gurps_character.cli:build_parser
    ```
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Iterator
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import ExtensionMetadata

__all__ = ["CliReference", "setup"]

COLUMNS = 80
"""The width the usage lines are wrapped to (as a terminal's ``--help``)."""


def _load_parser(spec: str) -> argparse.ArgumentParser:
    module_name, _, function_name = spec.partition(":")
    parser = getattr(importlib.import_module(module_name), function_name)()
    if not isinstance(parser, argparse.ArgumentParser):
        raise TypeError(f"{spec} returned {type(parser).__name__}, not an ArgumentParser")
    return parser


def _subcommands(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """The parser's subcommands, in the order they were added, with their parsers."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen: set[int] = set()
            for name, subparser in action.choices.items():
                if id(subparser) not in seen:  # an alias names the same parser again
                    seen.add(id(subparser))
                    yield name, subparser


def _documented(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [
        action
        for action in parser._actions
        if action.help != argparse.SUPPRESS and not isinstance(action, argparse._SubParsersAction)
    ]


def _usage(parser: argparse.ArgumentParser) -> str:
    formatter = argparse.HelpFormatter(parser.prog, width=COLUMNS)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups, prefix="")
    return formatter.format_help().strip()


def _signature(action: argparse.Action) -> str:
    """``-o OUT, --output OUT`` for an option, the metavar (or name) for a positional argument."""
    metavar = action.metavar if isinstance(action.metavar, str) else None
    if not action.option_strings:
        return metavar or str(action.dest)
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    shown = metavar or str(action.dest).upper()
    return ", ".join(f"{option} {shown}" for option in action.option_strings)


def _help(action: argparse.Action, parser: argparse.ArgumentParser) -> str:
    """The help text with argparse's ``%(name)s`` fields filled in, as ``--help`` shows it."""
    text = str(action.help or "")
    if "%" not in text:
        return text
    fields: dict[str, Any] = {
        name: value for name, value in vars(action).items() if value != argparse.SUPPRESS
    }
    fields["prog"] = parser.prog
    if action.choices is not None:
        fields["choices"] = ", ".join(str(choice) for choice in action.choices)
    return str(text % fields)


def _default(action: argparse.Action) -> str | None:
    """The default worth showing: none for flags, counters, ``--help`` and ``--version``."""
    if action.nargs == 0 or action.default in (None, argparse.SUPPRESS, False):
        return None
    if isinstance(action.default, list | tuple) and not action.default:
        return None
    return repr(action.default) if isinstance(action.default, str) else str(action.default)


def _anchor(parser: argparse.ArgumentParser) -> str:
    """The section id of a command: ``gurps-character-check`` for ``gurps-character check``."""
    return str(nodes.make_id(parser.prog))


def _paragraph(*parts: nodes.Node | str) -> nodes.paragraph:
    paragraph = nodes.paragraph()
    for part in parts:
        paragraph += nodes.Text(part) if isinstance(part, str) else part
    return paragraph


class CliReference(SphinxDirective):
    """Writes the reference of the parser that the argument (``module:function``) builds."""

    required_arguments = 1
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {"title-prefix": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        parser = _load_parser(self.arguments[0])
        return [self._parser_nodes(parser, name=None), *self._commands(parser)]

    def _commands(self, parser: argparse.ArgumentParser) -> Iterator[nodes.Node]:
        for name, subparser in _subcommands(parser):
            section = nodes.section(ids=[_anchor(subparser)])
            section += nodes.title(text=subparser.prog)
            section += self._parser_nodes(subparser, name=name)
            section.extend(self._commands(subparser))
            self.state.document.note_implicit_target(section, section)
            yield section

    def _parser_nodes(self, parser: argparse.ArgumentParser, name: str | None) -> nodes.container:
        container = nodes.container(classes=["cli-command"])
        if parser.description:
            container += _paragraph(parser.description)
        container += nodes.literal_block(text=_usage(parser), language="text")
        actions = _documented(parser)
        if actions:
            container += self._arguments(actions, parser)
        commands = list(_subcommands(parser))
        if commands:
            container += _paragraph("Commands: ", *self._command_links(commands))
        if parser.epilog:
            container += nodes.literal_block(text=parser.epilog.strip("\n"), language="text")
        return container

    def _command_links(self, commands: list[tuple[str, argparse.ArgumentParser]]) -> Iterator[nodes.Node]:
        for index, (name, subparser) in enumerate(commands):
            if index:
                yield nodes.Text(", ")
            reference = nodes.reference(refid=_anchor(subparser), internal=True)
            reference += nodes.literal(text=name)
            yield reference

    def _arguments(
        self, actions: list[argparse.Action], parser: argparse.ArgumentParser
    ) -> nodes.definition_list:
        listing = nodes.definition_list(classes=["cli-arguments"])
        for action in actions:
            item = nodes.definition_list_item()
            item += nodes.term("", "", nodes.literal(text=_signature(action)))
            definition = nodes.definition()
            definition += _paragraph(_help(action, parser))
            notes: list[nodes.Node | str] = []
            if action.choices is not None:
                notes.extend(
                    ["Choices: ", nodes.literal(text=", ".join(str(c) for c in action.choices)), ". "]
                )
            default = _default(action)
            if default is not None:
                notes.extend(["Default: ", nodes.literal(text=default), ". "])
            if action.required and action.option_strings:
                notes.append("Required. ")
            if notes:
                definition += _paragraph(*notes)
            item += definition
            listing += item
        return listing


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_directive("cli-reference", CliReference)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
