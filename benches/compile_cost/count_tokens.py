#!/usr/bin/env python3
"""Prints "TOKENS LINES" for a Rust source file (run.sh: expanded code).

Tokens are counted the way rustc's lexer would split the text, roughly:
string literals (raw or not, with escapes), char literals, lifetimes,
identifiers and keywords, numbers (with suffix), the multi-character
operators (`::`, `->`, `=>`, `==`, `..=`, ...) as one token each, every
other punctuation character as one; whitespace and `//` comments are not
tokens. Lines are the non-blank lines of the file as rustc's pretty-printer
wrote it (not rustfmt'd: the two differ by a constant factor only).
"""

import re
import sys

TOKEN = re.compile(
    r"""
    b?r(\#*)".*?"\1             # raw (byte) string
  | b?"(?:\\.|[^"\\])*"         # (byte) string
  | b?'(?:\\.|[^'\\])'          # (byte) char
  | '[A-Za-z_]\w*               # lifetime or label
  | \d[\w]*(?:\.\d[\w]*)?       # number, with its suffix
  | [A-Za-z_]\w*                # identifier or keyword
  | \.\.=|\.\.\.|<<=|>>=        # 3-char operators
  | ::|->|=>|==|!=|<=|>=|&&|\|\||\.\.|\+=|-=|\*=|/=|%=|\^=|&=|\|=|<<|>>
  | [^\s\w]                     # any other punctuation
    """,
    re.VERBOSE | re.DOTALL,
)
COMMENT = re.compile(r"//[^\n]*")


def count(text):
    tokens = 0
    pos = 0
    while True:
        # Comments only start outside literals: skip them between tokens.
        m = re.compile(r"\s*").match(text, pos)
        pos = m.end()
        if pos >= len(text):
            return tokens
        c = COMMENT.match(text, pos)
        if c:
            pos = c.end()
            continue
        t = TOKEN.match(text, pos)
        if not t:
            raise SystemExit("count_tokens: cannot lex at %r" % text[pos : pos + 40])
        tokens += 1
        pos = t.end()


def main():
    text = open(sys.argv[1]).read()
    lines = sum(1 for line in text.splitlines() if line.strip())
    print(count(text), lines)


if __name__ == "__main__":
    main()
