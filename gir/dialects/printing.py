"""The one shape of `print` shared by every level (`graph.print`, `host.print`,
`gir_gpu.print`): a scalar or a string, and a newline; and the type of the
program's string values (`!host.string`), which every level keeps on the host."""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloatConstr, IntegerType, StringAttr, UnitAttr
from xdsl.ir import Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_attr_definition,
    opt_operand_def,
    opt_prop_def,
)
from xdsl.utils.exceptions import VerifyException


@irdl_attr_definition
class StringType(ParametrizedAttribute, TypeAttribute):
    """A string of the program (GraphIt's `string`: a literal, a command-line
    argument): a host value at every level, never a kernel's argument. The host
    dialect registers it; `graph.string_constant`, `graph.argv_string` and
    `graph.string_eq` make and compare it at the graph level, their `host`
    namesakes below."""

    name = "host.string"


class PrintOpBase(IRDLOperation):
    """Writes the scalar or string `value`, or the literal string `text` (exactly
    one of them), and a newline; `unsigned` prints an integer as unsigned. Each level's print op
    derives from it with its name (and traits)."""

    value = opt_operand_def(base(IntegerType) | AnyFloatConstr | base(StringType))
    text = opt_prop_def(StringAttr)
    unsigned = opt_prop_def(UnitAttr)
    """Print the integer `value` as unsigned (`uint_64` values above 2^63)."""

    assembly_format = "(`unsigned` $unsigned^)? ($value^ `:` type($value))? ($text^)? attr-dict"

    def __init__(
        self,
        value: SSAValue | Operation | None = None,
        text: str | None = None,
        unsigned: bool = False,
    ):
        super().__init__(
            operands=[[] if value is None else [value]],
            properties={
                "text": None if text is None else StringAttr(text),
                "unsigned": UnitAttr() if unsigned else None,
            },
        )

    def verify_(self) -> None:
        if (self.value is None) == (self.text is None):
            raise VerifyException(f"{self.name} prints exactly one value or text")
        if self.unsigned is not None and (
            self.value is None or not isinstance(self.value.type, IntegerType)
        ):
            raise VerifyException(f"{self.name}: only integers print as unsigned")
