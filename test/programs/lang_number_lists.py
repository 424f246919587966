"""Host implementations of lang_number_lists.gt's extern functions: each takes
the program's list itself (changes are the program's)."""


def sum_list(numbers):
    """The sum of the list, as GraphIt's simple_extern_function_sum.cpp gives it."""
    return sum(numbers)


def drop_odd(numbers):
    """Removes the odd numbers in place."""
    numbers[:] = [n for n in numbers if n % 2 == 0]
