#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check_structure.py TAP - the code keeps the shape issue 15 gave it.

Product code is every .c and .h under src/, plugins/ and sshare-ext/.
  calls    the fair-share core calls one way: fairshare.c (the dispatcher)
           -> the algorithm files -> normalise.c; no algorithm file calls a
           function defined in the dispatcher, normalise.c calls neither,
           and of the algorithms only depth_oblivious.c calls another
           (classic.c);
  literals at most MAX_SPLIT string literals continue the one above them
           (after "..." PRId64 too), and only in help text (HELP_TEXT):
           every log and error message greps to its line;
           .clang-format has BreakStringLiterals: false;
  no_val   Slurm's NO_VAL is spelled as a number once, and NO_VAL64 once,
           both in src/ (no_val.h);
  statics  no two static functions share a name (grep and backtraces
           find one), and each static over LONG_STATIC lines has a comment
           right above it;
  plugin_calls  no circle among the files of plugins/: file A calls B
           when A calls a function defined in B (a non-static function of
           a .c, or an inline of a .h) and not in A; every strongly
           connected group of more than one file is reported with its
           calls (issue 28: priority_conf.c -> consumed_usage.c ->
           usage_windows.c -> priority_conf.c was one);
  releases a release test only in plugins/slurm_compat.h (and the files
           of RELEASE_TEST_ALLOWED, each with its reason): a #if/#elif
           naming SLURM_VERSION_*, any SLURM_VERSION_NUM(), or
           SLURM_VERSION_NUMBER next to a comparison or bit operator.
           SLURM_VERSION_NUMBER as a value (plugin_version, a --version
           line) is no test.  Everything that differs by release gets a
           named macro or inline helper in slurm_compat.h.
Then each check is run on a copy of the tree with one violation put in,
and must fail there: a check that cannot fail proves nothing.

The scan is a small C tokenizer (comments, literals, preprocessor lines,
brace depth), not a compiler: it knows the project's layout.  About 1 s.
"""
import os
import re
import shutil
import sys
import tempfile

MAX_SPLIT = 40
LONG_STATIC = 30
# Functions whose split literals are help text (usage, column lists).
HELP_TEXT = {"print_usage", "print_help", "fields_default"}
DISPATCHER = "src/fairshare.c"
ALGORITHMS = ["src/classic.c", "src/depth_oblivious.c", "src/fair_tree.c",
              "src/pbs.c"]
SHARED = "src/normalise.c"
ALLOWED_ALGO_CALLS = {("src/depth_oblivious.c", "src/classic.c")}
PRODUCT_DIRS = ["src", "plugins", "sshare-ext"]
PLUGIN_DIR = "plugins"
COMPAT_H = "plugins/slurm_compat.h"
# Files that may test the release besides COMPAT_H: {file: why}.  Empty:
# every test moved into slurm_compat.h as a named macro (issue 28).
RELEASE_TEST_ALLOWED = {}
NO_VAL32 = re.compile(r"^(0[xX][fF]{7}[eE]|4294967294)[uUlL]*$")
NO_VAL64 = re.compile(r"^(0[xX][fF]{15}[eE]|18446744073709551614)[uUlL]*$")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "case",
            "do", "else", "_Alignof", "__attribute__", "defined"}


class Tok:
    __slots__ = ("kind", "text", "line", "end", "pp", "depth")

    def __init__(self, kind, text, line, end, pp):
        self.kind, self.text, self.line, self.end = kind, text, line, end
        self.pp = pp
        self.depth = 0


def tokenize(src):
    """Tokens of src (kinds id, num, str, chr, punct) and comment spans."""
    toks, comments = [], []
    i, n, line = 0, len(src), 1
    pp = False          # inside a preprocessor line
    bol = True          # only blanks since the line began
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
            pp = False
            bol = True
            continue
        if c == "\\" and src.startswith("\\\n", i):
            line += 1
            i += 2
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            end = line + src.count("\n", i, j)
            comments.append((line, end))
            line = end
            i = j
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            comments.append((line, line))
            i = j
            continue
        if c == "#" and bol:
            pp = True
        bol = False
        if c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            end = line + src.count("\n", i, j)
            toks.append(Tok("str" if c == '"' else "chr", src[i:j + 1], line,
                            end, pp))
            line = end
            i = j + 1
            continue
        m = re.compile(r"[A-Za-z_]\w*|\.?\d[\w.]*|->|.").match(src, i)
        text = m.group(0)
        kind = ("id" if text[0].isalpha() or text[0] == "_" else
                "num" if text[0].isdigit() or text[:2] in (".0", ".1") else
                "punct")
        toks.append(Tok(kind, text, line, line, pp))
        i = m.end()
    return toks, comments


class Unit:
    """One source file: tokens, function definitions, calls."""

    def __init__(self, root, rel):
        self.rel = rel
        with open(os.path.join(root, rel), encoding="utf-8",
                  errors="replace") as f:
            self.toks, self.comments = tokenize(f.read())
        self.code = [t for t in self.toks if not t.pp]
        self.defs = []    # (name, static, first line, last line)
        self.calls = []   # (name, line)
        self.func_at = {}  # token index in code -> enclosing function
        self._scan()

    def _scan(self):
        code, depth, start, current = self.code, 0, 0, None
        for k, t in enumerate(code):
            t.depth = depth
            if current:
                self.func_at[id(t)] = current
            if t.text == "{" and t.kind == "punct":
                if depth == 0:
                    name = self._def_name(k)
                    if name:
                        decl = code[start:k]
                        current = [name, any(x.text == "static"
                                             for x in decl),
                                   code[start].line, None]
                depth += 1
            elif t.text == "}" and t.kind == "punct":
                depth -= 1
                if depth == 0:
                    if current:
                        current[3] = t.line
                        self.defs.append(tuple(current))
                        current = None
                    start = k + 1
            elif t.text == ";" and depth == 0:
                start = k + 1
            elif (t.kind == "id" and depth > 0 and t.text not in KEYWORDS
                  and k + 1 < len(code) and code[k + 1].text == "("
                  and not (k and code[k - 1].text in (".", "->"))):
                self.calls.append((t.text, t.line))

    def _def_name(self, k):
        """Name of the function whose body opens at code[k], or None."""
        code = self.code
        j = k - 1
        while j >= 0 and code[j].text == ")":
            depth = 0
            while j >= 0:
                if code[j].text == ")":
                    depth += 1
                elif code[j].text == "(":
                    depth -= 1
                    if depth == 0:
                        break
                j -= 1
            j -= 1
            if j >= 0 and code[j].kind == "id":
                if code[j].text == "__attribute__":
                    j -= 1
                    continue
                return code[j].text
            return None
        return None

    def def_names(self):
        return {d[0] for d in self.defs}


def product_files(root):
    out = []
    for d in PRODUCT_DIRS:
        for dirpath, _, names in os.walk(os.path.join(root, d)):
            for name in names:
                if name.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(dirpath, name),
                                               root))
    return sorted(out)


def check_calls(root):
    """RET (ok, detail) for the one-way calls of the fair-share core."""
    files = [DISPATCHER, SHARED] + ALGORITHMS
    missing = [f for f in files if not os.path.exists(os.path.join(root, f))]
    if missing:
        return False, "missing (update the check): " + ", ".join(missing)
    units = {f: Unit(root, f) for f in files}
    bad = []

    def forbid(caller, callee_files, why):
        names = set()
        for f in callee_files:
            names |= units[f].def_names()
        for name, line in units[caller].calls:
            if name in names:
                bad.append("%s:%d calls %s() (%s)" % (caller, line, name,
                                                      why))

    for a in ALGORITHMS:
        forbid(a, [DISPATCHER], "defined in the dispatcher")
        forbid(a, [b for b in ALGORITHMS
                   if b != a and (a, b) not in ALLOWED_ALGO_CALLS],
               "another algorithm")
    forbid(SHARED, [DISPATCHER] + ALGORITHMS, "calls run one way")
    return not bad, "\n".join(bad)


def split_literals(root, files):
    """[(file, line, function)] of literals continuing the one above."""
    out = []
    for rel in files:
        u = Unit(root, rel)
        toks = u.toks
        for k, t in enumerate(toks):
            if t.kind != "str":
                continue
            j = k - 1
            # "..." PRId64 "..." is one literal too
            while j >= 0 and toks[j].kind == "id" and re.match(
                    r"(PRI|SCN)\w+$", toks[j].text):
                j -= 1
            if j >= 0 and toks[j].kind == "str" and t.line > toks[j].end:
                fn = u.func_at.get(id(t))
                out.append((rel, t.line, fn[0] if fn else None))
    return out


def check_literals(root):
    split = split_literals(root, product_files(root))
    bad = ["%s:%d in %s()" % s for s in split if s[2] not in HELP_TEXT]
    lines = []
    if len(split) > MAX_SPLIT:
        lines.append("%d split literals, at most %d" % (len(split),
                                                         MAX_SPLIT))
    if bad:
        lines.append("split outside help text (%s):" %
                     ", ".join(sorted(HELP_TEXT)))
        lines += bad
    return not lines, "\n".join(lines), len(split)


def check_clang_format(root):
    path = os.path.join(root, ".clang-format")
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        return False, str(e)
    if re.search(r"^BreakStringLiterals:\s*false\s*$", text, re.M):
        return True, ""
    return False, ".clang-format lacks BreakStringLiterals: false"


def check_no_val(root):
    found = {32: [], 64: []}
    for rel in product_files(root):
        for t in Unit(root, rel).toks:
            if t.kind != "num":
                continue
            for bits, rx in ((32, NO_VAL32), (64, NO_VAL64)):
                if rx.match(t.text):
                    found[bits].append("%s:%d %s" % (rel, t.line, t.text))
    lines = []
    for bits in (32, 64):
        where = found[bits]
        if len(where) != 1 or not where[0].startswith("src/"):
            lines.append("NO_VAL%s spelled %d times, want once in src/:" %
                         ("" if bits == 32 else "64", len(where)))
            lines += where
    return not lines, "\n".join(lines)


def check_static_names(root):
    seen = {}
    for rel in product_files(root):
        if not rel.endswith(".c"):
            continue
        for name, static, line, _ in Unit(root, rel).defs:
            if static:
                seen.setdefault(name, []).append("%s:%d" % (rel, line))
    bad = ["%s: %s" % (n, ", ".join(w)) for n, w in sorted(seen.items())
           if len(w) > 1]
    return not bad, "\n".join(bad)


def check_static_comments(root):
    bad = []
    for rel in product_files(root):
        if not rel.endswith(".c"):
            continue
        u = Unit(root, rel)
        ends = {end for _, end in u.comments}
        for name, static, first, last in u.defs:
            if static and last - first + 1 > LONG_STATIC and \
                    first - 1 not in ends:
                bad.append("%s:%d %s(): %d lines, no comment above" %
                           (rel, first, name, last - first + 1))
    return not bad, "\n".join(bad)


def call_graph(root, files):
    """{caller: {callee: (name, line)}} between files (see plugin_calls)."""
    units = {f: Unit(root, f) for f in files}
    owner = {}
    for f, u in units.items():
        for name, static, _, _ in u.defs:
            if not (static and f.endswith(".c")):
                owner.setdefault(name, set()).add(f)
    edges = {}
    for f, u in units.items():
        local = u.def_names()
        for name, line in u.calls:
            if name in local:
                continue
            for g in sorted(owner.get(name, ())):
                if g != f:
                    edges.setdefault(f, {}).setdefault(g, (name, line))
    return edges


def circles(nodes, edges):
    """Strongly connected groups of more than one node (Tarjan, no
    recursion)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], 0
    for v0 in nodes:
        if v0 in index:
            continue
        work = [(v0, iter(sorted(edges.get(v0, {}))))]
        index[v0] = low[v0] = n
        n += 1
        stack.append(v0)
        on.add(v0)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n
                    n += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, {})))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    out.append(sorted(group))
    return out


def check_plugin_calls(root):
    files = [f for f in product_files(root)
             if f.startswith(PLUGIN_DIR + "/")]
    edges = call_graph(root, files)
    bad = []
    for group in circles(files, edges):
        bad.append("circle: " + ", ".join(group))
        for a in group:
            for b, (name, line) in sorted(edges.get(a, {}).items()):
                if b in group:
                    bad.append("  %s:%d calls %s() of %s" % (a, line, name,
                                                            b))
    return not bad, "\n".join(bad)


VERSION_PP = re.compile(r"^\s*#\s*(if|elif)\b.*\bSLURM_VERSION_")
COMPARE = set("<>&|!=")


def release_tests(root, rel):
    """[line] of the release tests in file rel."""
    with open(os.path.join(root, rel), encoding="utf-8",
              errors="replace") as f:
        text = f.read()
    found = set()
    # directives whole, continuation lines joined
    first, logical = 0, ""
    for n, line in enumerate(text.split("\n"), 1):
        if not logical:
            first = n
        logical += line
        if logical.endswith("\\"):
            logical = logical[:-1]
            continue
        if VERSION_PP.match(logical):
            found.add(first)
        logical = ""
    toks = Unit(root, rel).toks
    for k, t in enumerate(toks):
        if t.kind != "id":
            continue
        if t.text == "SLURM_VERSION_NUM":
            found.add(t.line)
        elif t.text == "SLURM_VERSION_NUMBER":
            nxt = toks[k + 1].text if k + 1 < len(toks) else ""
            prv = toks[k - 1].text if k else ""
            prv2 = toks[k - 2].text if k > 1 else ""
            if (nxt in COMPARE and nxt != "=") or \
                    (nxt == "=" and k + 2 < len(toks) and
                     toks[k + 2].text == "=") or \
                    (prv in COMPARE and prv != "=") or \
                    (prv == "=" and prv2 in COMPARE):
                found.add(t.line)
    return sorted(found)


def check_releases(root):
    bad = []
    for rel in product_files(root):
        if rel == COMPAT_H or rel in RELEASE_TEST_ALLOWED:
            continue
        for line in release_tests(root, rel):
            bad.append("%s:%d tests the release (name it in %s)" %
                       (rel, line, COMPAT_H))
    return not bad, "\n".join(bad)


# ------------------------------------------------------------ self-test

def mutated(root, edits):
    """A temp copy of the product code with edits {file: fn(text)}."""
    tmp = tempfile.mkdtemp(prefix="ts-structure.")
    for d in PRODUCT_DIRS:
        shutil.copytree(os.path.join(root, d), os.path.join(tmp, d))
    shutil.copy(os.path.join(root, ".clang-format"), tmp)
    for rel, fn in edits.items():
        path = os.path.join(tmp, rel)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(fn(text))
    return tmp


def append(code):
    return lambda text: text + code


LONG_BODY = "".join("\tx += %d;\n" % i for i in range(LONG_STATIC))
SELF_TESTS = [
    ("calls", "an algorithm file calling the dispatcher",
     {"src/pbs.c": append(
         "\nint ts_pbs_violation(struct ts_fs *fs, struct ts_error *e)\n"
         "{\n\treturn ts_fs_alloc(fs, 1, e);\n}\n")}),
    ("calls", "classic.c calling depth_oblivious.c",
     {"src/classic.c": append(
         "\nint ts_classic_violation(const struct ts_tree *t,"
         " struct ts_fs *fs)\n{\n\treturn ts_depth_oblivious(t, 1, fs,"
         " NULL);\n}\n")}),
    ("calls", "normalise.c calling an algorithm",
     {SHARED: append("\nstatic double normalise_violation(void)\n{\n"
                     "\treturn ts_pbs_factor(0, 1);\n}\n")}),
    ("literals", "an error message split over two lines",
     {"sshare-ext/what_if.c": append(
         '\nstatic int split_violation(char *m, size_t n)\n{\n'
         '\treturn snprintf(m, n, "one message "\n\t\t"on two lines");\n'
         '}\n')}),
    ("literals", "a PRId64 message split over two lines",
     {"src/windows.c": append(
         '\nstatic int split_violation(char *m, size_t n, int64_t v)\n{\n'
         '\treturn snprintf(m, n, "%" PRId64\n\t\t" rolled", v);\n}\n')}),
    ("literals", "%d split literals in help text" % (MAX_SPLIT + 1),
     {"sshare-ext/fields.c": append(
         "\nconst char *print_help(void)\n{\n\treturn \"a\"\n" +
         "".join('\t\t"b"\n' for _ in range(MAX_SPLIT + 1)) + "\t\t;\n}\n")}),
    ("clang_format", ".clang-format without BreakStringLiterals: false",
     {".clang-format": lambda t: t.replace("BreakStringLiterals: false",
                                           "BreakStringLiterals: true")}),
    ("no_val", "a second spelling of NO_VAL",
     {"sshare-ext/share_set.h": append("#define X_NO_VAL 0xFFFFFFFEu\n")}),
    ("no_val", "a second spelling of NO_VAL64",
     {"plugins/node_power/config_file.c": append(
         "static const unsigned long long x = 18446744073709551614ULL;\n")}),
    ("static_names", "two static functions of one name",
     {"src/params.c": append(
         "\nstatic int is_c_space(char c)\n{\n\treturn c == ' ';\n}\n")}),
    ("static_comments", "a long static without a comment",
     {"src/tree.c": append("\nstatic int long_violation(int x)\n{\n" +
                           LONG_BODY + "\treturn x;\n}\n")}),
]

SELF_TESTS += [
    ("plugin_calls", "issue 28's circle put back (usage_windows.c calling "
     "priority_conf.c)",
     {"plugins/priority_treeshare/usage_windows.c": append(
         "\nbool usage_windows_violation(void)\n{\n"
         "\treturn conf_get() != NULL;\n}\n")}),
    ("plugin_calls", "two node_power files calling each other",
     {"plugins/node_power/log_file.c": append(
         "\nint log_file_violation(void)\n{\n"
         "\treturn command_violation();\n}\n"),
      "plugins/node_power/command.c": append(
         "\nint command_violation(void)\n{\n"
         "\treturn log_file_violation();\n}\n")}),
    ("releases", "a #if on the release in shares_rpc.c",
     {"sshare-ext/shares_rpc.c": append(
         "\n#if SLURM_VERSION_NUMBER >= 0x170200\n#endif\n")}),
    ("releases", "a #define of a release test in a plugin header",
     {"plugins/priority_treeshare/cycle.h": append(
         "\n#define X_NEW (SLURM_VERSION_NUMBER >= \\\n"
         "\tSLURM_VERSION_NUM(24, 5, 0))\n")}),
    ("releases", "a release compared in C code",
     {"plugins/priority_treeshare/cycle.c": append(
         "\nstatic int release_violation(void)\n{\n"
         "\treturn SLURM_VERSION_NUMBER < 0x170200;\n}\n")}),
]

CHECKS = {
    "calls": check_calls,
    "literals": lambda root: check_literals(root)[:2],
    "clang_format": check_clang_format,
    "no_val": check_no_val,
    "static_names": check_static_names,
    "static_comments": check_static_comments,
    "plugin_calls": check_plugin_calls,
    "releases": check_releases,
}


def main():
    tap_path = sys.argv[1]
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..",
                                        ".."))
    results = []
    split_ok, split_detail, n_split = check_literals(root)
    results.append((check_calls(root),
                    "fair-share calls run one way: fairshare.c -> "
                    "algorithms -> normalise.c"))
    results.append(((split_ok, split_detail),
                    "%d split string literals, at most %d, all in help "
                    "text" % (n_split, MAX_SPLIT)))
    results.append((check_clang_format(root),
                    ".clang-format keeps string literals whole"))
    results.append((check_no_val(root),
                    "NO_VAL and NO_VAL64 are spelled as numbers once each"))
    results.append((check_static_names(root),
                    "no two static functions share a name"))
    results.append((check_static_comments(root),
                    "every static over %d lines has a comment above it" %
                    LONG_STATIC))
    results.append((check_plugin_calls(root),
                    "no circle of calls among the files of plugins/"))
    results.append((check_releases(root),
                    "the release is tested only in %s%s" %
                    (COMPAT_H, " and %d allowed files" %
                     len(RELEASE_TEST_ALLOWED) if RELEASE_TEST_ALLOWED
                     else "")))
    for check, what, edits in SELF_TESTS:
        tmp = mutated(root, edits)
        try:
            good, detail = CHECKS[check](tmp)
        finally:
            shutil.rmtree(tmp)
        results.append(((not good, "the check passed: it cannot fail"),
                         "%s check fails on a copy with %s" % (check, what)))
    with open(tap_path, "w", encoding="utf-8") as tap:
        for n, ((good, detail), name) in enumerate(results, 1):
            line = "%s %d - %s" % ("ok" if good else "not ok", n, name)
            print(line)
            tap.write(line + "\n")
            if not good:
                for d in detail.split("\n"):
                    print("# " + d)
                    tap.write("# " + d + "\n")
        tap.write("1..%d\n" % len(results))
    print("1..%d" % len(results))
    return 0 if all(r[0][0] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
