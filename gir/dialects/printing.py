"""The one shape of `print` shared by every level (`graph.print`, `host.print`,
`gir_gpu.print`): a scalar or a string, and a newline; and the program's
strings (`!host.string`), which every level keeps on the host: their type and
the shapes of the ops that make and compare them (`graph.string_constant` and
`host.string_constant`, and so on); and the program's lists of numbers
(`!host.number_list<T>`, GraphIt's `list{int}`), host values too, with the
shapes of the ops that make, grow, shrink and measure them."""

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
    param_def,
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


# ---------------------------------------------------------------------------
# Lists of numbers (GraphIt's `list{int}`): host values at every level
# ---------------------------------------------------------------------------


@irdl_attr_definition
class NumberListType(ParametrizedAttribute, TypeAttribute):
    """A growable list of numbers of type `element` (GraphIt's `list{int}`): a
    host value at every level, never a kernel's argument, changed in place by
    the ops below (a handle, as a Python list or a C++ `std::vector` is). The
    host dialect registers it; `graph.number_list_*` make and use it at the
    graph level, their `host` namesakes after `graph-to-host-io`."""

    name = "host.number_list"

    element: Attribute = param_def(base(IntegerType) | AnyFloatConstr)

    def __init__(self, element: Attribute):
        super().__init__(element)


def _verify_element(op: IRDLOperation, stack: SSAValue, value: SSAValue) -> None:
    """Raises unless `value` has the element type of the list `stack`."""
    assert isinstance(stack.type, NumberListType)
    if value.type != stack.type.element:
        raise VerifyException(f"{op.name}: the list holds {stack.type.element}, not {value.type}")


class NumberListNewOpBase(IRDLOperation):
    """`new list{int}()`: an empty list."""

    result = result_def(NumberListType)

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, element: Attribute):
        super().__init__(result_types=[NumberListType(element)])


class NumberListAppendOpBase(IRDLOperation):
    """`l.append(x)` (GraphIt's `insert` too): `x` becomes the list's last item."""

    list = operand_def(NumberListType)
    value = operand_def(base(IntegerType) | AnyFloatConstr)

    assembly_format = "$list `,` $value attr-dict `:` type($list) `,` type($value)"

    def __init__(self, stack: SSAValue | Operation, value: SSAValue | Operation):
        super().__init__(operands=[stack, value])

    def verify_(self) -> None:
        _verify_element(self, self.list, self.value)


class NumberListPopOpBase(IRDLOperation):
    """`l.pop()`: removes the list's last item and gives it; an empty list stops
    the program with a run-time error."""

    list = operand_def(NumberListType)
    result = result_def(base(IntegerType) | AnyFloatConstr)

    assembly_format = "$list attr-dict `:` type($list) `->` type($result)"

    def __init__(self, stack: SSAValue | Operation):
        stack_type = SSAValue.get(stack).type
        assert isinstance(stack_type, NumberListType)
        super().__init__(operands=[stack], result_types=[stack_type.element])

    def verify_(self) -> None:
        _verify_element(self, self.list, self.result)


class NumberListSizeOpBase(IRDLOperation):
    """`l.size()`: the number of items (i32)."""

    list = operand_def(NumberListType)
    result = result_def(i32)

    assembly_format = "$list attr-dict `:` type($list)"

    def __init__(self, stack: SSAValue | Operation):
        super().__init__(operands=[stack], result_types=[i32])
