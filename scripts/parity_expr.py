# problem.json's integer expressions, evaluated as src/problem/shape_expr.cpp does; the parity
# workers size their process groups with them.
import ast


def eval_expr(text, env):
    """problem.json's integer expressions, as src/problem/shape_expr.cpp reads them: C division
    and remainder (toward zero), comparisons giving 0 or 1, ceil_div, min, max, select."""
    def trunc_div(a, b):
        if b == 0:
            raise ValueError(f'expression "{text}": division by zero')
        quotient = abs(a) // abs(b)
        return quotient if (a < 0) == (b < 0) else -quotient

    binary = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
              ast.Mult: lambda a, b: a * b, ast.Div: trunc_div,
              ast.Mod: lambda a, b: a - b * trunc_div(a, b),
              ast.Eq: lambda a, b: int(a == b), ast.NotEq: lambda a, b: int(a != b),
              ast.Lt: lambda a, b: int(a < b), ast.LtE: lambda a, b: int(a <= b),
              ast.Gt: lambda a, b: int(a > b), ast.GtE: lambda a, b: int(a >= b)}
    calls = {"ceil_div": lambda a, b: trunc_div(a + b - 1, b), "min": lambda a, b: min(a, b),
             "max": lambda a, b: max(a, b), "select": lambda c, a, b: a if c else b}

    def value(node):
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in env:
                raise ValueError(f"expression \"{text}\": unknown name '{node.id}'")
            return int(env[node.id])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in binary:
            return binary[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in binary:
            return binary[type(node.ops[0])](value(node.left), value(node.comparators[0]))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in calls and not node.keywords):
            function = calls[node.func.id]
            if len(node.args) != function.__code__.co_argcount:
                raise ValueError(f'expression "{text}": {node.func.id} takes '
                                 f"{function.__code__.co_argcount} arguments")
            return function(*[value(arg) for arg in node.args])
        raise ValueError(f'expression "{text}": unsupported syntax')

    try:
        return value(ast.parse(text, mode="eval").body)
    except SyntaxError:
        raise ValueError(f'expression "{text}": not an expression') from None
