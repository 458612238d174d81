"""Programs saved by the tests: each is its own oracle (the original object, run beside
the one loaded from its saved model)."""

import autograph_py as ag


class Counter(ag.Module):
    """A Variable, a staged `for` with `break` and `if`, a staged `while`, assignments."""

    def __init__(self):
        super().__init__()
        self.scale = ag.Variable(2.0, name="scale")
        self.steps = ag.Variable(0, name="steps")

    @ag.function(input_signature=[ag.TensorSpec([None], ag.float32)])
    def __call__(self, x):
        total = ag.constant(0.0)
        for i in ag.range(ag.shape(x)[0]):
            if x[i] > 10.0:
                break
            if x[i] < 0.0:
                total -= x[i]
            else:
                total += x[i] * self.scale
        n = ag.constant(0)
        while total > 1.0:
            total = total / 2.0
            n += 1
        self.steps.assign_add(n)
        self.scale.assign(self.scale * 1.5)
        return total


class Nested(ag.Module):
    """Loops in branches in loops; two traces of one function; a submodule; a list."""

    def __init__(self):
        super().__init__()
        self.inner = Counter()
        self.weights = [ag.Variable([1.0, 2.0], name="w0"), ag.Variable([3.0, 4.0], name="w1")]

    @ag.function
    def run(self, x, square=False):
        acc = ag.zeros_like(x)
        for w in self.weights:
            i = ag.constant(0)
            while i < 3:
                if ag.reduce_sum(acc) > 100.0:
                    acc = acc - w
                else:
                    acc = acc + w * x
                i += 1
        if square:
            acc = acc * acc
        return {"acc": acc, "inner": self.inner(x)}


class TwoSignatures(ag.Module):
    def __init__(self):
        super().__init__()
        self.bias = ag.Variable(0.5, name="bias")

    @ag.function(input_signature=[ag.TensorSpec([None, 2], ag.float32, name="points")])
    def norms(self, x):
        return {"norm": ag.sqrt(ag.reduce_sum(x * x, axis=1)) + self.bias}

    @ag.function(input_signature=[ag.TensorSpec([], ag.int32), ag.TensorSpec([], ag.int32)])
    def gcd(self, a, b):
        while b != 0:
            a, b = b, a % b
        return a
