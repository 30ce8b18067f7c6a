#!/usr/bin/env python3
"""Writes an N-layer TOSA graph with about OPS operations to stdout.

Each layer is matmul -> add (bias) -> clamp (relu) -> transpose -> sigmoid
-> mul, with an exp (deny) every fourth layer, so the painting sees every
category and real boundaries. Usage: gen_graph.py OPS
"""
import sys

ops_wanted = int(sys.argv[1])
t = "tensor<1x16x16xf32>"
lines = [
    f"func.func @layers(%x: {t}, %w: {t}, %b: {t}) -> {t} {{",
    '  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>',
    '  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>',
]
ops = 2
h = "%x"
layer = 0
while ops < ops_wanted:
    n = layer
    body = [
        f"  %m{n} = tosa.matmul {h}, %w, %zp, %zp : ({t}, {t}, tensor<1xf32>, tensor<1xf32>) -> {t}",
        f"  %a{n} = tosa.add %m{n}, %b : ({t}, {t}) -> {t}",
        f"  %r{n} = tosa.clamp %a{n} {{min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32}} : ({t}) -> {t}",
        f"  %t{n} = tosa.transpose %r{n} {{perms = array<i32: 0, 2, 1>}} : ({t}) -> {t}",
        f"  %s{n} = tosa.sigmoid %t{n} : ({t}) -> {t}",
    ]
    last = f"%s{n}"
    if n % 4 == 3:
        body.append(f"  %e{n} = tosa.exp %s{n} : ({t}) -> {t}")
        last = f"%e{n}"
    body.append(f"  %h{n} = tosa.mul {last}, %t{n}, %shift : ({t}, {t}, tensor<1xi8>) -> {t}")
    lines += body
    ops += len(body)
    h = f"%h{n}"
    layer += 1
lines.append(f"  return {h} : {t}")
lines.append("}")
print("\n".join(lines))
