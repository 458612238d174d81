"""The article's examples, in order, with autograph_py in place of TensorFlow.

Run: `python examples/seed.py`. Each section prints what the article shows (README.md,
"Where the examples come from"); tests/e2e/test_seed_examples.py checks the output.
"""

import autograph_py as ag


def eager_execution():
    x = ag.ones((2, 2), dtype=ag.dtypes.float32)
    y = ag.constant([[1, 2], [3, 4]], dtype=ag.dtypes.float32)
    z = ag.matmul(x, y)
    print(z)
    print(z.numpy())


def python_control_flow_on_eager_values():
    random_value = ag.random.uniform([], 0, 1)
    x = ag.reshape(ag.range(0, 4), [2, 2])
    print(random_value)
    if random_value.numpy() > 0.5:
        y = ag.matmul(x, x)
    else:
        y = ag.add(x, x)
    return y


def eager_gradients():
    w = ag.Variable([[1.0]])
    with ag.GradientTape() as tape:
        loss = w * w + 2. * w + 5.
    grad = tape.gradient(loss, w)
    print(grad)


def square_if_positive(x):
    if x > 0:
        x = x * x
    else:
        x = 0.0
    return x


def autograph_to_graph():
    print('Eager results: %2.2f, %2.2f' % (square_if_positive(ag.constant(9.0)),
                                           square_if_positive(ag.constant(-9.0))))
    ag_square_if_positive = ag.to_graph(square_if_positive)
    with ag.Graph().as_default():
        g_out1 = ag_square_if_positive(ag.constant(9.0))
        g_out2 = ag_square_if_positive(ag.constant(-9.0))
        with ag.Session() as sess:
            print('Graph results: %2.2f, %2.2f\n' % (sess.run(g_out1), sess.run(g_out2)))
    print(ag.to_code(square_if_positive))


def sum_even(items):
    s = 0
    for c in items:
        if c % 2 > 0:
            continue
        s += c
    return s


def loops_with_continue():
    print('Eager result: %d' % sum_even(ag.constant([10, 12, 15, 20])))
    ag_sum_even = ag.to_graph(sum_even)
    with ag.Graph().as_default(), ag.Session() as sess:
        print('Graph result: %d\n\n' % sess.run(ag_sum_even(ag.constant([10, 12, 15, 20]))))
    print(ag.to_code(sum_even))


def f(x, y):
    print(x, y)
    return ag.reduce_mean(ag.multiply(x ** 2, 3) + y)


def function_per_signature():
    g = ag.function(f)
    x = ag.constant([[2.0, 3.0]])
    y = ag.constant([[3.0, -2.0]])
    assert f(x, y).numpy() == g(x, y).numpy()


def graphs_placeholders_feeds():
    with ag.Graph().as_default():
        x = ag.placeholder(ag.float32)
        y = ag.square(x)
        z = ag.add(x, y)
        sess = ag.Session()
        print(sess.run([z], feed_dict={x: 2.}))
        print(sess.run([z], feed_dict={x: 2., y: 2.}))


@ag.function
def compute_z1(x, y):
    return ag.add(x, y)


@ag.function
def compute_z0(x):
    return compute_z1(x, ag.square(x))


def functions_calling_functions():
    print(compute_z0(2.))
    print(compute_z1(2., 2.))


@ag.function
def double(a):
    print("Tracing with", a)
    return a + a


def polymorphism():
    print(double(ag.constant(1)))
    print(double(ag.constant(1.1)))
    print(double(ag.constant([1, 2])))
    print(double(ag.constant(3)))


@ag.function(input_signature=[ag.TensorSpec(shape=None, dtype=ag.float32)])
def add_one(x):
    return ag.add(x, 1.)


def input_signature():
    print(add_one(ag.constant(1.0)))
    print(add_one(ag.constant([1.0, ])))
    try:
        add_one(ag.constant([1]))
    except ValueError as e:
        print("ValueError:", e)


def autograph_switch():
    sum_even_autograph_on = ag.function(sum_even, autograph=True)
    sum_even_autograph_off = ag.function(sum_even, autograph=False)
    x = ag.constant([10, 12, 15, 20])
    print(sum_even(x))
    print(sum_even_autograph_on(x))
    try:
        sum_even_autograph_off(x)
    except TypeError as e:
        print("TypeError:", str(e).splitlines()[0])


class ScalarModel(object):
    def __init__(self):
        self.v = ag.Variable(0)

    @ag.function
    def increment(self, amount):
        self.v.assign_add(amount)


def methods_and_variables():
    model1 = ScalarModel()
    model1.increment(ag.constant(3))
    assert int(model1.v) == 3
    model1.increment(ag.constant(4))
    assert int(model1.v) == 7
    model2 = ScalarModel()
    model2.increment(ag.constant(5))
    assert int(model2.v) == 5
    print(int(model1.v), int(model2.v))


@ag.function
def print_element(items):
    for c in items:
        ag.print(c)


def printing_at_run_time():
    print_element(ag.constant([1, 5, 6, 8, 3]))


SECTIONS = [eager_execution, python_control_flow_on_eager_values, eager_gradients,
            autograph_to_graph, loops_with_continue, function_per_signature,
            graphs_placeholders_feeds, functions_calling_functions, polymorphism,
            input_signature, autograph_switch, methods_and_variables, printing_at_run_time]

if __name__ == "__main__":
    for number, section in enumerate(SECTIONS, 1):
        print(f"--- {number}. {section.__name__.replace('_', ' ')}")
        section()
