"""`gir-opt`: parse GraphIt (`.gt`) or IR (`.mlir`), run passes, print IR.

Built on xDSL's `xDSLOptMain`: gir's dialects, passes and named pipelines are
registered, `.gt` files go through gir's frontend, `--pass-pipeline` accepts
`builtin.module(a,b{k=v})` as well as `-p a,b`, and every user error (bad IR, bad
GraphIt source) is one line on stderr with exit status 1, a malformed command line
(unknown option or pass, a pipeline that does not parse) exit status 2. The output
file is only written when everything succeeded.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from io import StringIO
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    ParseError,
    PassFailedException,
)
from xdsl.xdsl_opt_main import xDSLOptMain

from gir.dialects import register_dialects
from gir.frontend.notes import STRICT_SCHEDULE_HELP
from gir.diagnostics import SourceError, UsageError, UserError, describe_diagnostic, printable
from gir.passes.locations import LocationInheritance
from gir.passes.registry import (
    PIPELINES,
    available_passes,
    parse_pipeline,
    pass_summary,
    strip_module_anchor,
)
from gir.tools.output import check_not_input, stdout_closed_quietly, write_text
from gir.verifier import indexing_lookups

XDSL_GENERIC_PASSES = ("canonicalize", "cse", "dce")
"""xDSL's own target-independent passes that gir-opt offers too."""


def _pass_help() -> str:
    lines = ["gir passes:"]
    for name, factory in sorted(available_passes().items()):
        if name in PIPELINES:
            continue
        pass_class = factory()
        lines.append(f"  {name:<28} {pass_summary(pass_class)}")
        for option, summary in getattr(pass_class, "option_help", list)():
            lines.append(f"  {'':<30}{option:<24} {summary}")
    lines.append("")
    lines.append("named pipelines (usable as passes):")
    for name, pipeline in sorted(PIPELINES.items()):
        lines.append(f"  {name:<28} {pipeline.summary}")
        lines.append(f"  {'':<28}   = {pipeline.spec}")
    lines.append("")
    lines.append("also: " + ", ".join(XDSL_GENERIC_PASSES) + " (from xDSL)")
    return "\n".join(lines)


_PASS_LIST = "(gir's passes and pipelines)"
"""The epilog's placeholder, replaced by `_pass_help()` when help is printed."""


class _PassListFormatter(argparse.RawDescriptionHelpFormatter):
    """Writes the pass list into the help only when help is printed: making it
    imports every pass module (0.4 s, a third of a short gir-opt run)."""

    def add_text(self, text: str | None) -> None:
        super().add_text(_pass_help() if text is _PASS_LIST else text)


class _KeptOpen(StringIO):
    """An output buffer that survives the driver's `close()`, so that nothing is
    written to the output file before the whole run succeeded."""

    def close(self) -> None:
        pass


class GirOptMain(xDSLOptMain):
    """xDSL's optimizer driver with gir's dialects, passes and frontend."""

    def __init__(self, args: Sequence[str] | None = None):
        super().__init__(
            description="gir's optimizer: GraphIt or IR in, IR after passes out.",
            args=args,
        )

    def register_all_dialects(self) -> None:
        register_dialects(self.ctx)

    def register_all_passes(self) -> None:
        from xdsl.universe import Universe

        xdsl_passes = Universe.get_multiverse().all_passes
        for name in XDSL_GENERIC_PASSES:
            self.register_pass(name, xdsl_passes[name])
        for name, factory in available_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        super().register_all_targets()
        from gir.universe import TARGETS

        self.available_targets.update(TARGETS)

    def register_all_frontends(self) -> None:
        super().register_all_frontends()

        def parse_graphit(io: IO[bytes]) -> ModuleOp:
            from gir.frontend import parse_graphit_source

            if self.args.export is not None:
                return _export_module(
                    io.read(), self.get_input_name(), self.args.export, self.args.strict_schedule
                )
            return parse_graphit_source(
                io.read(), self.get_input_name(), self.args.strict_schedule
            )

        self.available_frontends["gt"] = parse_graphit

    def parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        if file_extension != "mlir":
            return super().parse_chunk(chunk, file_extension, start_offset)
        if self.args.export is not None:
            raise UserError("error: --export names an 'export func' of GraphIt (.gt) input, not of IR")
        from gir.ir_input import parse_module_text

        try:
            return parse_module_text(
                chunk.read(),
                self.get_input_name(),
                self.ctx,
                verify=not (self.args.verify_diagnostics or self.args.disable_verify),
                implicit_module=not self.args.no_implicit_module,
                line_offset=start_offset,
            )
        except SourceError as error:
            if not self.args.parsing_diagnostics:
                raise
            print(error)
            return None

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--pass-pipeline",
            type=str,
            default=None,
            help="passes to run, as 'builtin.module(p1,p2{opt=v})' or 'p1,p2'",
        )
        arg_parser.add_argument(
            "--strict-schedule", action="store_true", help=STRICT_SCHEDULE_HELP
        )
        arg_parser.add_argument(
            "--export",
            metavar="NAME",
            default=None,
            help="compile the GraphIt file's 'export func NAME' (the program that "
            "gir.compile(...).NAME runs) instead of its main",
        )
        arg_parser.formatter_class = _PassListFormatter
        arg_parser.epilog = _PASS_LIST

    def setup_pipeline(self) -> None:
        spec = self.args.passes
        if self.args.pass_pipeline is not None:
            if self.args.passes:
                raise UsageError("error: give passes with either -p or --pass-pipeline, not both")
            spec = self.args.pass_pipeline
            self.args.passes = strip_module_anchor(spec)
        try:
            super().setup_pipeline()
        except ValueError as error:
            raise UsageError(f"error: {error}") from None
        except ArgSpecParseError as error:
            raise pipeline_syntax_error(error, spec, self.args.passes) from None
        verifying = self.pipeline.callback
        self.pipeline = PassPipeline(
            expand_named_pipelines(self.pipeline.passes),
            LocationInheritance(None if verifying is None else indexing_lookups(verifying)),
        )

    def prepare_output(self) -> IO[str]:
        return self._buffer

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        if self.args.input_file == "-":
            self.args.input_file = None
        return super().get_input_stream()

    def prepare_input(self) -> tuple[list[tuple[IO[bytes], int]], str]:
        try:
            return super().prepare_input()
        except ValueError as error:
            raise UserError(
                f"error: {error}: gir-opt reads .gt (GraphIt) and .mlir files; "
                "use -f gt|mlir to say which"
            ) from None

    def run(self) -> None:
        check_not_input(self.args.output_file, self.args.input_file)
        self._buffer = _KeptOpen()
        super().run()
        output = self._buffer
        if self.args.output_file is None:
            sys.stdout.write(output.getvalue())
        else:
            write_text(self.args.output_file, output.getvalue())


def expand_named_pipelines(passes: Sequence[ModulePass]) -> tuple[ModulePass, ...]:
    """`passes` with each named pipeline (`lower-to-gpu`, ...) replaced by its
    passes, nested pipelines included: the driver's callback then runs after every
    pass, so `--print-between-passes` prints, `--time-passes` times and the
    verifier checks the IR after each pass inside a named pipeline too, as they
    do for the same passes spelled out with `-p`."""
    expanded: list[ModulePass] = []
    for module_pass in passes:
        if module_pass.name in PIPELINES:
            inner = parse_pipeline(PIPELINES[module_pass.name].spec).passes
            expanded.extend(expand_named_pipelines(inner))
        else:
            expanded.append(module_pass)
    return tuple(expanded)


def _export_module(source: bytes, filename: str, name: str, strict_schedule: bool) -> ModuleOp:
    """The graph-dialect module of the program that runs export `name` of the
    GraphIt `source` as its `main` (see `gir.frontend.exports`)."""
    from gir.frontend.exports import export_program
    from gir.frontend.irgen import build_module
    from gir.frontend.parser import parse_program
    from gir.frontend.source import decode_source, ensure_recursion_headroom

    ensure_recursion_headroom()
    program = parse_program(decode_source(source, filename), filename)
    run, _ = export_program(program, name, filename)
    return build_module(run, filename, strict_schedule)


def pipeline_syntax_error(error: ArgSpecParseError, given: str, parsed: str) -> UsageError:
    """xDSL's multi-line pipeline syntax error as `pass-pipeline:1:COL: error: ...`.

    `parsed` is `given` without its `builtin.module(...)` anchor; the column is
    counted in `given`, the text the user typed.
    """
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    message = lines[-1] if lines else "malformed pass pipeline"
    locations = [re.fullmatch(r"pass-pipeline:\d+:(\d+)", line) for line in lines]
    column = next((int(found[1]) for found in locations if found), 1)
    column += max(given.find(parsed), 0) if parsed else 0
    return UsageError(f"pass-pipeline:1:{column}: error: {message} in '{given}'")


def report_user_errors(run: callable) -> int:  # type: ignore[valid-type]
    """Runs a tool's body; prints user errors as one line and returns the status:
    2 for a malformed command line (`UsageError`), 1 for other user errors."""
    try:
        run()
    except UserError as error:
        print(str(error), file=sys.stderr)
        return 2 if isinstance(error, UsageError) else 1
    except ParseError as error:
        print(printable(str(error).rstrip()), file=sys.stderr)
        return 1
    except (DiagnosticException, PassFailedException) as error:
        print(printable(describe_diagnostic(error)), file=sys.stderr)
        return 1
    except BrokenPipeError:
        return stdout_closed_quietly()
    except OSError as error:
        print(printable(f"error: {error.strerror}: {error.filename}"), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `gir-opt`."""
    return report_user_errors(lambda: GirOptMain(args=argv).run())


if __name__ == "__main__":
    sys.exit(main())
