#!/usr/bin/env python3
"""syidl --object-ids refuses bad lists: exit status 1, a "file:line: error:" message naming the
line, and no header written. Unreadable list: exit 1, "file: error: cannot read". Bad usage: 2.

    check_object_ids_errors.py SYIDL BAD_LISTS_DIR OUT_DIR
"""
import os
import subprocess
import sys

# list file -> the line its error is on
EXPECTED = {
    'duplicate_id.txt': 4,
    'bad_escape.txt': 2,
    'bad_hex_escape.txt': 3,
    'trailing_backslash.txt': 2,
}


def run(syidl, *args):
    return subprocess.run([syidl, *args], capture_output=True, text=True, timeout=60)


def main():
    syidl, bad_dir, out_dir = sys.argv[1:4]
    os.makedirs(out_dir, exist_ok=True)
    failures = []
    for name, line in EXPECTED.items():
        path = os.path.join(bad_dir, name)
        output = os.path.join(out_dir, name + '.h')
        if os.path.exists(output):
            os.remove(output)
        result = run(syidl, '--object-ids', path, '--name', 'ids', '-o', output)
        where = f"{path}:{line}: error:"
        if result.returncode != 1:
            failures.append(f"{name}: exit status {result.returncode}, expected 1")
        if where not in result.stderr:
            failures.append(f"{name}: no '{where}' in: {result.stderr!r}")
        if os.path.exists(output):
            failures.append(f"{name}: a header was written")

    missing = os.path.join(bad_dir, 'no_such_list.txt')
    result = run(syidl, '--object-ids', missing, '-o', os.path.join(out_dir, 'missing.h'))
    if result.returncode != 1 or f"{missing}: error: cannot read" not in result.stderr:
        failures.append(f"unreadable list: exit {result.returncode}, stderr {result.stderr!r}")

    good = os.path.join(bad_dir, '..', 'listed_ids.txt')
    for args, what in [(['--object-ids', good], 'no -o'),
                       (['--object-ids', good, '--name', '1x', '-o', os.path.join(out_dir, 'x.h')], 'bad --name'),
                       (['--name', 'x', 'a.idl'], '--name without --object-ids')]:
        result = run(syidl, *args)
        if result.returncode != 2:
            failures.append(f"{what}: exit status {result.returncode}, expected 2 (usage)")

    for f in failures:
        print(f"FAIL: {f}")
    print(f"{len(EXPECTED) + 4 - len(failures)} checks passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
