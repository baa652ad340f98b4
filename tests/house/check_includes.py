#!/usr/bin/env python3
"""Checks every #include of the tree against the "May include:" line of its folder's README.md.

    check_includes.py [--root DIR]

A source file (.h .hh .hpp .cpp .cc .c, and .in templates of them) is governed by the nearest
README.md above it, up to DIR (not DIR itself), that says "May include:". The clause runs
from there to the first full stop or semicolon outside backticks and parentheses (or the end of
the paragraph). Parenthesized text is a comment; the rest is a list of items separated by commas
and "and":

- a path in backticks: a folder (`orb/cdr`, `demux/`), a file (`tests/core/orb_fixture.h`), or a
  public header (`<switchyard/exception.h>`, `<switchyard/cdr/>`: under orb/include/);
- a kind of header, by name: the standard library, POSIX (with Linux's system headers), compiler
  intrinsics, ACE, Boost, Boost.Unordered, omniORB, Catch2, Valgrind, the public headers,
  generated code (a quoted include found nowhere in the tree: the build writes it), everything,
  its own folder (always allowed; named for the reader).

An item may be narrowed to some files by a parenthesis that starts with "only in" and names file
patterns in backticks: "ACE (only in `*.cpp` and `*_address.h` files)" allows ACE in those files
and nowhere else of the folder. Any other parenthesis is a comment.

A file may always include its own folder (the README's, subfolders included). Anything else, or
a README whose clause holds an unknown item, fails with file:line and what the README allows.
Exit status 0 when every include is allowed, 1 otherwise.
"""

import argparse
import fnmatch
import os
import re
import sys

SOURCE_SUFFIXES = ('.h', '.hh', '.hpp', '.cpp', '.cc', '.c', '.h.in', '.cpp.in')
SKIPPED_DIRS = {'.git', '__pycache__', 'fixtures'}
PUBLIC = 'orb/include/'

STANDARD_LIBRARY = set('''
algorithm any array atomic barrier bit bitset cassert cctype cerrno cfenv cfloat charconv chrono
cinttypes climits clocale cmath codecvt compare complex concepts condition_variable coroutine
csetjmp csignal cstdarg cstddef cstdint cstdio cstdlib cstring ctime cuchar cwchar cwctype deque
exception execution expected filesystem format forward_list fstream functional future
initializer_list iomanip ios iosfwd iostream istream iterator latch limits list locale map memory
memory_resource mutex new numbers numeric optional ostream queue random ranges ratio regex
scoped_allocator semaphore set shared_mutex source_location span sstream stack stdexcept
stop_token streambuf string string_view syncstream system_error thread tuple type_traits
typeindex typeinfo unordered_map unordered_set utility valarray variant vector version
assert.h ctype.h errno.h fenv.h float.h inttypes.h limits.h locale.h math.h setjmp.h signal.h
stdarg.h stddef.h stdint.h stdio.h stdlib.h string.h time.h uchar.h wchar.h wctype.h
'''.split())

POSIX_HEADERS = set('''
aio.h arpa dirent.h dlfcn.h fcntl.h fnmatch.h glob.h grp.h ifaddrs.h libgen.h malloc.h net
netdb.h netinet poll.h pthread.h pwd.h sched.h semaphore.h spawn.h strings.h sys syslog.h
termios.h unistd.h linux
'''.split())

# name in the README -> predicate over the included name (angle brackets or unresolved quotes)
EXTERNAL_KINDS = {
    'the standard library': lambda name: name in STANDARD_LIBRARY,
    'POSIX': lambda name: name.split('/')[0] in POSIX_HEADERS,
    'compiler intrinsics': lambda name: name.endswith('intrin.h'),
    'ACE': lambda name: name.startswith('ace/'),
    'Boost': lambda name: name.startswith('boost/'),
    'Boost.Unordered': lambda name: name.startswith('boost/unordered'),
    'omniORB': lambda name: name.startswith('omniORB4/'),
    'Catch2': lambda name: name.startswith('catch2/'),
    'Valgrind': lambda name: name.startswith('valgrind/'),
    'OpenSSL': lambda name: name.startswith('openssl/'),
}
OTHER_KINDS = ('the public headers', 'generated code', 'everything', 'its own folder')

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
RAW_STRING_START = re.compile(r'R"([^()\\\s]{0,16})\(')


class ReadmeError(Exception):
    pass


def clause_of(text):
    """The text of the "May include:" clause of a README and its line number, or None."""
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if 'May include:' not in line:
            continue
        paragraph = [line[line.index('May include:') + len('May include:'):].strip()]
        for rest in lines[number + 1:]:
            if not rest.strip():
                break
            paragraph.append(rest.strip())
        body = ' '.join(paragraph)
        depth, in_code = 0, False
        for index, char in enumerate(body):
            if char == '`':
                in_code = not in_code
            elif not in_code and char == '(':
                depth += 1
            elif not in_code and char == ')':
                depth -= 1
            elif (not in_code and depth == 0 and char in '.;'
                  and (index + 1 == len(body) or body[index + 1] == ' ')):
                return body[:index], number + 1
        return body, number + 1
    return None


def split_items(clause):
    """(item text, [parenthesized texts]) for each comma- or "and"-separated item of a clause."""
    parts, text, notes, note, depth, in_code = [], [], [], [], 0, False
    for char in clause + ',':
        if char == '`':
            in_code = not in_code
        if not in_code and char == '(':
            depth += 1
            if depth == 1:
                continue
        elif not in_code and char == ')':
            depth -= 1
            if depth == 0:
                notes.append(''.join(note))
                note = []
                continue
        if depth > 0:
            note.append(char)
        elif char == ',' and not in_code:
            parts.append((''.join(text), notes))
            text, notes = [], []
        else:
            text.append(char)
    items = []
    for words, notes in parts:
        # "and" separates items too, outside backticks
        pieces = re.split(r'\band\b(?=(?:[^`]*`[^`]*`)*[^`]*$)', words)
        for index, piece in enumerate(pieces):
            items.append((piece.strip(), notes if index + 1 == len(pieces) else []))
    return items


def parse_clause(clause):
    """Items of a clause: (kind, value, file patterns or None), kind 'path' (a prefix or file) or
    'kind' (a kind of header, by name)."""
    items = []
    for part, notes in split_items(clause):
        if not part:
            continue
        patterns = None
        for note in notes:
            if note.strip().startswith('only in'):
                patterns = re.findall(r'`([^`]+)`', note)
                if not patterns:
                    raise ReadmeError(f'"({note})" names no file pattern in backticks')
        code = re.fullmatch(r'`([^`]+)`', part)
        if code:
            path = code.group(1).strip()
            if path.startswith('<') and path.endswith('>'):
                path = PUBLIC + path[1:-1]
            items.append(('path', path, patterns))
        elif part in EXTERNAL_KINDS or part in OTHER_KINDS:
            items.append(('kind', part, patterns))
        else:
            raise ReadmeError(f'unknown item "{part}" (a path in backticks, or one of: '
                              + ', '.join(list(EXTERNAL_KINDS) + list(OTHER_KINDS)) + ')')
    if not items:
        raise ReadmeError('the "May include:" clause lists nothing')
    return items


def include_lines(path):
    """(line number, bracket, name) of each #include outside raw string literals."""
    result = []
    raw_end = None
    with open(path, encoding='utf-8', errors='replace') as source:
        for number, line in enumerate(source, 1):
            position = 0
            if raw_end is not None:
                end = line.find(raw_end)
                if end < 0:
                    continue
                position = end + len(raw_end)
                raw_end = None
            elif INCLUDE.match(line):
                match = INCLUDE.match(line)
                result.append((number, match.group(1), match.group(2)))
            while True:
                start = RAW_STRING_START.search(line, position)
                if not start:
                    break
                closing = ')' + start.group(1) + '"'
                end = line.find(closing, start.end())
                if end < 0:
                    raw_end = closing
                    break
                position = end + len(closing)
    return result


def resolve(root, source_dir, bracket, name):
    """The included file's path relative to root, or None when it is not in the tree."""
    candidates = [os.path.join(PUBLIC, name)]
    if bracket == '"':
        candidates = [os.path.join(source_dir, name), name] + candidates
    for candidate in candidates:
        candidate = os.path.normpath(candidate)
        for made in ('', '.in'):  # switchyard/config.h is configured from config.h.in
            if os.path.isfile(os.path.join(root, candidate + made)):
                return candidate.replace(os.sep, '/')
    return None


def under(path, folder):
    folder = folder.rstrip('/')
    return path == folder or path.startswith(folder + '/')


def allowed(items, own_folder, source, included_path, bracket, name):
    if included_path is not None and under(included_path, own_folder):
        return True
    file_name = os.path.basename(source)
    for kind, value, patterns in items:
        if patterns is not None and not any(fnmatch.fnmatch(file_name, p) for p in patterns):
            continue
        if kind == 'kind' and value == 'everything':
            return True
        if included_path is not None:
            if kind == 'path' and under(included_path, value):
                return True
            if kind == 'kind' and value == 'the public headers' and under(included_path, PUBLIC):
                return True
        else:
            if kind == 'kind' and value in EXTERNAL_KINDS and EXTERNAL_KINDS[value](name):
                return True
            if kind == 'kind' and value == 'generated code' and bracket == '"':
                return True
    return False


def check(root):
    rules = {}      # folder -> (readme, items) or None
    problems = 0
    unruled = []

    def rule_for(folder):
        if folder not in rules:
            readme = os.path.join(root, folder, 'README.md')
            rule = None
            if os.path.isfile(readme):
                with open(readme, encoding='utf-8') as text:
                    found = clause_of(text.read())
                if found:
                    clause, line = found
                    shown = os.path.join(folder, 'README.md')
                    try:
                        rule = (shown, parse_clause(clause), ' '.join(clause.split()))
                    except ReadmeError as error:
                        raise ReadmeError(f'{shown}:{line}: {error}') from None
            rules[folder] = rule
        return rules[folder]

    for directory, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs
                            if d not in SKIPPED_DIRS and not d.startswith('build')
                            and not os.path.isfile(os.path.join(directory, d, 'meson-private', 'coredata.dat')))
        relative_dir = os.path.relpath(directory, root)
        if relative_dir == '.':
            continue
        for file_name in sorted(files):
            if not file_name.endswith(SOURCE_SUFFIXES):
                continue
            source = os.path.join(relative_dir, file_name).replace(os.sep, '/')
            folder, rule = relative_dir, None
            while folder not in ('', '.'):
                rule = rule_for(folder)
                if rule:
                    break
                folder = os.path.dirname(folder)
            if rule is None:
                unruled.append(source)
                continue
            readme, items, clause = rule
            for number, bracket, name in include_lines(os.path.join(root, source)):
                included = resolve(root, relative_dir, bracket, name)
                if not allowed(items, folder, source, included, bracket, name):
                    shown = f'{bracket}{name}{">" if bracket == "<" else chr(34)}'
                    print(f'{source}:{number}: includes {shown}, but {readme} allows only '
                          f'its own folder and: {clause.strip()}')
                    problems += 1
    for source in unruled:
        print(f'{source}: no README.md above it (up to the top) has a "May include:" line')
    return problems + len(unruled)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--root', default=os.path.join(os.path.dirname(__file__), '..', '..'))
    arguments = parser.parse_args()
    try:
        problems = check(os.path.abspath(arguments.root))
    except ReadmeError as error:
        print(error)
        return 1
    if problems:
        print(f'{problems} problem(s)', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
