"""The one shape of `print` shared by every level (`graph.print`, `host.print`,
`gir_gpu.print`): a scalar or a string, and a newline; and the program's
strings (`!host.string`), which every level keeps on the host: their type and
the shapes of the ops that make and compare them (`graph.string_constant` and
`host.string_constant`, and so on)."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    I64,
    AnyFloatConstr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_attr_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException


@irdl_attr_definition
class StringType(ParametrizedAttribute, TypeAttribute):
    """A string of the program (GraphIt's `string`: a literal, a command-line
    argument): a host value at every level, never a kernel's argument. The host
    dialect registers it; `graph.string_constant`, `graph.argv_string` and
    `graph.string_eq` make and compare it at the graph level, their `host`
    namesakes after `graph-to-host-io`."""

    name = "host.string"


class StringConstantOpBase(IRDLOperation):
    """A string literal as a value (`var name : string = "rmat";`)."""

    text = prop_def(StringAttr)
    result = result_def(StringType)

    assembly_format = "$text attr-dict `:` type($result)"

    def __init__(self, text: str):
        super().__init__(properties={"text": StringAttr(text)}, result_types=[StringType()])


class ArgvStringOpBase(IRDLOperation):
    """The program's N-th command-line argument as it was written
    (`var name : string = argv[2];`)."""

    index = prop_def(IntegerAttr[I64])
    result = result_def(StringType)

    assembly_format = "`argv` `[` $index `]` attr-dict `:` type($result)"

    def __init__(self, index: int):
        super().__init__(properties={"index": IntegerAttr(index, i64)}, result_types=[StringType()])

    def verify_(self) -> None:
        if self.index.value.data < 0:
            raise VerifyException(f"{self.name}: argv index {self.index.value.data} is negative")


class StringToIntOpBase(IRDLOperation):
    """`atoi(s)`: a string's text as an integer, read as an integer argument is
    (decimal or 0x hexadecimal, optionally signed); other text stops the program
    with an error."""

    text = operand_def(StringType)
    result = result_def(IntegerType)

    assembly_format = "$text attr-dict `:` type($result)"

    def __init__(self, text: SSAValue | Operation, result_type: Attribute = i32):
        super().__init__(operands=[text], result_types=[result_type])


class StringEqOpBase(IRDLOperation):
    """Whether two strings have the same text (`a == b`; `a != b` negates it)."""

    lhs = operand_def(StringType)
    rhs = operand_def(StringType)
    result = result_def(i1)

    assembly_format = "$lhs `,` $rhs attr-dict"

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation):
        super().__init__(operands=[lhs, rhs], result_types=[i1])


class PrintOpBase(IRDLOperation):
    """Writes the scalar or string `value`, or the literal string `text` (exactly
    one of them), and a newline; `unsigned` prints an integer as unsigned. Each
    level's print op derives from it with its name (and traits)."""

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
