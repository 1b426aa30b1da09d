#!/usr/bin/env python3
"""Counts (and with --write, extracts) the operator definitions of NNEF 2.0 Rev 8's chapter 4.

Each ``` block after "The following operators are defined in the <m> module." belongs to module m.
--count prints "module count" per module; --write DIR writes DIR/<module>.sknd with the blocks as the
draft has them (the repairs of docs/nnef2.md are made by hand afterwards).
"""
import re
import sys

def blocks(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("## 4. Standard Library Operators"))
    module, inside, current, out = None, False, [], {}
    for line in lines[start:]:
        m = re.match(r"The following operators are defined in the (\w+) module", line)
        if m:
            module = m.group(1)
            out.setdefault(module, [])
        elif line.strip() == "```":
            if inside:
                out[module].append("\n".join(current))
                current = []
            inside = not inside
        elif inside:
            current.append(line)
    return out

def main():
    mods = blocks(sys.argv[1])
    if sys.argv[2] == "--count":
        for m, bs in mods.items():
            print(m, sum(len(re.findall(r"^\s*(?:public\s+)?operator\s+\w+", b, re.M)) for b in bs))
    elif sys.argv[2] == "--write":
        for m, bs in mods.items():
            with open(f"{sys.argv[3]}/{m}.sknd", "w", encoding="utf-8") as f:
                f.write(f"# NNEF 2.0 standard library, module {m}: Revision 8, chapter 4 (see docs/nnef2.md)\n\n")
                f.write("\n\n".join(bs) + "\n")

main()
