#!/usr/bin/env python3
"""awk-programs.py AWK FILE...: every awk program written in the shell
files given (the first single-quoted word after `awk` and its -F and -v
options; '"'"' is a quote inside it) is parsed by the awk AWK, which runs
it on no input; each one it rejects is printed as FILE:LINE: AWK: its
message.  Prints "N programs" and exits 1 when any was rejected, 2 when
none was found.  The pipelines and tests are POSIX awk: mawk (Debian's
default awk) and the one true awk reject what gawk alone accepts."""
import re
import subprocess
import sys


def word_end(text, k):
    """the end of a shell word starting at k: quotes kept whole"""
    while k < len(text) and text[k] not in ' \t\n;|)':
        if text[k] in '"\'':
            k = text.index(text[k], k + 1)
        k += 1
    return k


def programs(text):
    for m in re.finditer(r'(?<![\w./-])awk\b', text):
        k = m.end()
        while k < len(text):
            if text[k] in ' \t\\\n':
                k += 1
            elif text.startswith('-F', k) or text.startswith('-v', k):
                k += 2
                while text[k] == ' ':
                    k += 1
                k = word_end(text, k)
            elif text.startswith('"$', k):	# a program held in a variable
                k = word_end(text, k + 1)
            elif text[k] == "'":
                prog, k = '', k + 1
                while True:
                    e = text.index("'", k)
                    prog, k = prog + text[k:e], e + 1
                    if not text.startswith('"\'"\'', k):
                        break
                    prog, k = prog + "'", k + 4
                yield text.count('\n', 0, m.start()) + 1, prog
                break
            else:
                break


def main():
    if len(sys.argv) < 3:
        print('usage: awk-programs.py AWK FILE...', file=sys.stderr)
        return 2
    awk, n, bad = sys.argv[1], 0, 0
    for path in sys.argv[2:]:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
        for line, prog in programs(text):
            n += 1
            r = subprocess.run([awk, prog, '/dev/null'], capture_output=True,
                               text=True, timeout=30, check=False)
            if re.search(r'syntax error|illegal statement|unexpected|'
                         r'parse error|unterminated', r.stderr):
                bad += 1
                msg = ' / '.join(r.stderr.strip().splitlines()[:3])
                print(f'{path}:{line}: {awk}: {msg}')
    print(f'{n} programs')
    return 2 if n == 0 else 1 if bad else 0


sys.exit(main())
