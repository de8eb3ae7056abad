#!/usr/bin/env python3
"""Checks the links and API names of the user docs.

Usage: check_links.py ROOT

Reads ROOT/docs/*.md, ROOT/README.md and ROOT/benchmarks/README.md and
prints each problem as FILE:LINE: MESSAGE (FILE relative to ROOT), exiting
1 if there is any, 0 otherwise. Python 3 standard library only.

Links, [text](target) and ![alt](target), reference definitions
([label]: target) and <http://...> autolinks, outside code:
- http(s) and mailto targets are not fetched, only checked to be
  well-formed (a scheme, a host for http(s), no spaces);
- a relative target must name an existing file or folder, relative to the
  page;
- #anchor into a Markdown page (or the page itself) must be the GitHub
  anchor of one of its headings: the heading's text lowercased, every
  character but letters, digits, spaces, '-' and '_' removed (backticks
  and other punctuation among them), spaces turned into '-'; a heading
  repeated gets -1, -2, ... in order;
- #anchor into any other file is refused, except GitHub's line anchors
  Lnn and Lnn-Lmm, whose lines must exist in the file. A line number
  breaks when the file changes: link a header by name and section
  instead.

API names: every rg_, rgf_ and eng_ identifier inside a `code span`
(rg_merge_get, rg_graph_desc.reuse_age, rg_merge_get(g, i, &m)) or in
the code of a ```c block must appear in the public headers (HEADERS
below). For name.field, name must appear and field must be a member of
struct name where the headers define that struct (else appear in the
headers); for name.field.sub, sub is looked up in field's struct type
the same way. Not API names, so not checked: the library's internal
rg__ names (docs/internals.md), names in paths and file names
(tests/unit/test_rg_merge.c), test names (rg_traffic/*) and bare
prefixes (rg_).
"""

import os
import re
import sys
import urllib.parse

PAGES_GLOBS = [("docs", ".md")]
PAGES_EXTRA = ["README.md", os.path.join("benchmarks", "README.md")]
# The public headers: the render graph, its frame files, the engine and
# its image files.
HEADERS = [
    "rendergraph/include/rendergraph/rendergraph.h",
    "rendergraph/frame/include/rendergraph_frame/rendergraph_frame.h",
    "engine/include/engine/engine.h",
    "engine/files/include/engine_files/engine_files.h",
]

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
INLINE_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)"
                         r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
REF_DEF = re.compile(r"^ {0,3}\[([^\]]+)\]:[ \t]*(<[^>]*>|\S+)", re.M)
AUTOLINK = re.compile(r"<((?:https?|mailto):[^>\s]*)>")
HTML_ATTR = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']*)["']""")
EXPLICIT_ANCHOR = re.compile(r"""<a\s[^>]*\b(?:name|id)\s*=\s*["']([^"']+)["']""")
QUALIFIERS = {"const", "volatile", "struct", "union", "enum", "signed", "unsigned", "RG_EXPERIMENTAL"}
LINE_ANCHOR = re.compile(r"^L(\d+)(?:-L(\d+))?$")
API_NAME = re.compile(r"(?<![A-Za-z0-9_/.\-])((?:rg|rgf|eng)_[A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)")
FILE_SUFFIX = re.compile(r"\.(?:c|h|md|json|py|sh|txt|svg|png|ppm|cmake|pc|a|so|dll|lib|in)$")


class Problems:
    def __init__(self):
        self.items = []

    def add(self, path, line, message):
        self.items.append((path, line, message))


# ------------------------------------------------------------------ Markdown


def split_code(lines):
    """Yields (line number, text, fence) for every line: fence is None
    outside fenced code, else the fence's info string ("c", "" for none);
    the fence lines themselves count as inside."""
    fence, info = None, None
    for number, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if fence is None:
            if m:
                fence, info = m.group(1), line.strip()[len(m.group(1)):].strip().lower()
                yield number, line, info
            else:
                yield number, line, None
            continue
        yield number, line, info
        if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and line.strip() == m.group(1):
            fence, info = None, None


def heading_text(raw):
    """The text GitHub renders for a heading's Markdown."""
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)", r"\1", raw)  # links: their text
    text = re.sub(r"<[^>]+>", "", text)                                       # HTML tags
    text = text.replace("*", "")                                              # emphasis
    return text


def github_anchor(text):
    slug = text.strip().lower()
    slug = "".join(ch for ch in slug if ch.isalnum() or ch in " -_")
    return slug.replace(" ", "-")


def anchors_of(lines):
    """Every anchor the page has: its headings' (with GitHub's suffixes for
    repeats) and explicit <a name|id>."""
    anchors, seen = set(), {}
    previous = None
    for _, line, fence in split_code(lines):
        if fence is not None:
            previous = None
            continue
        for m in EXPLICIT_ANCHOR.finditer(line):
            anchors.add(m.group(1))
        text = None
        m = ATX_HEADING.match(line)
        if m:
            text = m.group(2) or ""
        elif previous is not None and previous.strip() and SETEXT_UNDERLINE.match(line) and \
                not ATX_HEADING.match(previous) and not previous.lstrip().startswith(("-", "*", ">")):
            text = previous.strip()
        previous = line
        if text is None:
            continue
        base = github_anchor(heading_text(text))
        count = seen.get(base, 0)
        anchors.add(base if count == 0 else "%s-%d" % (base, count))
        seen[base] = count + 1
    return anchors


def blocks(lines):
    """(first line number, text) of each paragraph outside fenced code: a
    run of non-blank lines, joined by newlines (links and code spans may
    cross a line break, not a blank line)."""
    start, run = None, []
    for number, line, fence in split_code(lines):
        if fence is None and line.strip():
            if start is None:
                start = number
            run.append(line)
            continue
        if run:
            yield start, "\n".join(run)
        start, run = None, []
    if run:
        yield start, "\n".join(run)


def line_of(start, text, offset):
    return start + text.count("\n", 0, offset)


def strip_code_spans(text):
    """The text with inline code blanked out (offsets and newlines kept)."""
    return CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def link_targets(lines):
    """(line number, target) of every link outside code."""
    for start, block in blocks(lines):
        text = strip_code_spans(block)
        for pattern in (REF_DEF, INLINE_LINK, AUTOLINK, HTML_ATTR):
            for m in pattern.finditer(text):
                group = 2 if pattern in (REF_DEF, INLINE_LINK) else 1
                yield line_of(start, text, m.start(group)), m.group(group)


def code_spans(lines):
    """(line number, text) of every inline code span outside fences (the
    line it starts on), and of every line of C in ```c fences."""
    for start, block in blocks(lines):
        for m in CODE_SPAN.finditer(block):
            yield line_of(start, block, m.start(2)), m.group(2).replace("\n", " ")
    for number, line, fence in split_code(lines):
        if fence == "c" and not FENCE.match(line):
            yield number, strip_c_comments(line)


# ------------------------------------------------------------------- links


def check_url(target):
    if any(ch.isspace() for ch in target):
        return "malformed URL '%s' (white space)" % target
    parts = urllib.parse.urlsplit(target)
    if parts.scheme == "mailto":
        return None if "@" in parts.path else "malformed URL '%s'" % target
    host = parts.hostname or ""
    if not re.fullmatch(r"[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+|localhost", host):
        return "malformed URL '%s' (no host)" % target
    return None


class Site:
    def __init__(self, root):
        self.root = root
        self.anchor_cache = {}
        self.line_cache = {}

    def anchors(self, path):
        if path not in self.anchor_cache:
            with open(path, encoding="utf-8") as f:
                self.anchor_cache[path] = anchors_of(f.read().split("\n"))
        return self.anchor_cache[path]

    def line_count(self, path):
        if path not in self.line_cache:
            with open(path, "rb") as f:
                data = f.read()
            self.line_cache[path] = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
        return self.line_cache[path]

    def check(self, page, target):
        """None, or what is wrong with the link target on page."""
        if target.startswith("<") and target.endswith(">"):
            target = target[1:-1]
        if not target:
            return "empty link target"
        scheme = urllib.parse.urlsplit(target).scheme
        if scheme in ("http", "https", "mailto"):
            return check_url(target)
        if scheme:
            return "link '%s': scheme '%s' is neither http(s) nor mailto" % (target, scheme)
        path, _, anchor = target.partition("#")
        path = urllib.parse.unquote(path)
        if path.startswith("/"):
            return "link '%s': absolute path (use one relative to the page)" % target
        dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        shown = os.path.relpath(dest, self.root)
        if not os.path.exists(dest):
            return "link '%s': %s does not exist" % (target, shown)
        if not anchor:
            return None
        anchor = urllib.parse.unquote(anchor)
        if os.path.isdir(dest):
            return "link '%s': an anchor into a folder" % target
        if dest.endswith(".md"):
            if anchor not in self.anchors(dest):
                return "link '%s': %s has no heading with anchor '#%s'" % (target, shown, anchor)
            return None
        m = LINE_ANCHOR.match(anchor)
        if not m:
            return ("link '%s': anchor '#%s' into %s, which is not Markdown: link the file and name "
                    "the declaration or section instead" % (target, anchor, shown))
        lines = self.line_count(dest)
        for n in m.groups():
            if n is not None and not 1 <= int(n) <= lines:
                return "link '%s': %s has %d lines, no line %s" % (target, shown, lines, n)
        return None


# ------------------------------------------------------------ API names


def strip_c_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def matching_brace(text, start):
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def struct_members(body):
    """{member: type} of a struct body (comments stripped). Members of an
    anonymous struct or union are the enclosing struct's, as in C11."""
    members = {}
    i = 0
    while i < len(body):
        brace = body.find("{", i)
        semi = body.find(";", i)
        if semi < 0:
            break
        if 0 <= brace < semi:                      # a nested struct or union
            end = matching_brace(body, brace)
            inner = struct_members(body[brace + 1:end])
            semi = body.find(";", end)
            names = re.findall(r"[A-Za-z_]\w*", body[end + 1:semi if semi >= 0 else len(body)])
            if names:
                for name in names:
                    members[name] = None
            else:
                members.update(inner)
            i = (semi if semi >= 0 else len(body)) + 1
            continue
        decl = body[i:semi].strip()
        i = semi + 1
        if not decl:
            continue
        pointer_fn = re.match(r".*?\(\s*\*\s*([A-Za-z_]\w*)\s*\)", decl, re.S)
        if pointer_fn:                             # void (*free)(void *user, ...)
            members[pointer_fn.group(1)] = None
            continue
        decl = re.sub(r"\[[^\]]*\]", "", decl)     # arrays
        decl = re.sub(r":\s*\d+", "", decl)        # bit fields
        pieces = decl.split(",")
        words = [w for w in re.findall(r"[A-Za-z_]\w*", pieces[0]) if w not in QUALIFIERS]
        if len(words) < 2:
            continue
        base_type = words[0]
        members[words[-1]] = base_type
        for piece in pieces[1:]:
            names = re.findall(r"[A-Za-z_]\w*", piece)
            if names:
                members[names[-1]] = base_type
    return members


class Api:
    def __init__(self, root, problems):
        self.words = set()
        self.structs = {}
        for header in HEADERS:
            path = os.path.join(root, header)
            if not os.path.exists(path):
                problems.add(header, 0, "public header missing")
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read()
            self.words.update(re.findall(r"[A-Za-z_]\w*", text))
            code = strip_c_comments(text)
            for m in re.finditer(r"\bstruct\s+([A-Za-z_]\w*)\s*\{", code):
                end = matching_brace(code, m.end() - 1)
                members = struct_members(code[m.end():end])
                self.structs[m.group(1)] = members
                tail = re.match(r"\s*([A-Za-z_]\w*)\s*;", code[end + 1:])
                if tail:                           # typedef struct x { ... } y;
                    self.structs.setdefault(tail.group(1), members)

    def check(self, name, fields):
        """None, or what is wrong with name.field.field..."""
        shown = ".".join([name] + fields)
        if name not in self.words:
            return "`%s`: %s is not in the public headers" % (shown, name)
        owner = name
        for field in fields:
            members = self.structs.get(owner) if owner else None
            if members is not None:
                if field not in members:
                    return "`%s`: struct %s has no member '%s'" % (shown, owner, field)
                owner = members[field]
            else:
                if field not in self.words:
                    return "`%s`: '%s' is not in the public headers" % (shown, field)
                owner = None
        return None


def api_names(span):
    """(name, [fields]) of every API name in a code span's text."""
    if re.search(r"[A-Za-z0-9_]/[A-Za-z0-9_]", span) and " " not in span.strip():
        return                                     # a path
    for m in API_NAME.finditer(span):
        whole = m.group(0)
        if "__" in m.group(1):
            continue                               # rg__x: an internal name
        if FILE_SUFFIX.search(whole):
            continue                               # a file name
        after = span[m.end():m.end() + 1]
        if after in ("/", "-") or whole.endswith("_"):
            continue                               # a path, a flag, a prefix such as `rg_`
        fields = [f for f in m.group(2).split(".") if f]
        yield m.group(1), fields


# ------------------------------------------------------------------- main


def pages(root):
    found = []
    for folder, suffix in PAGES_GLOBS:
        d = os.path.join(root, folder)
        if os.path.isdir(d):
            found += sorted(os.path.join(d, n) for n in os.listdir(d) if n.endswith(suffix))
    found += [os.path.join(root, p) for p in PAGES_EXTRA if os.path.exists(os.path.join(root, p))]
    return found


def main(argv):
    if len(argv) != 2:
        print("usage: check_links.py ROOT", file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    problems = Problems()
    site = Site(root)
    api = Api(root, problems)
    checked = 0
    for page in pages(root):
        shown = os.path.relpath(page, root)
        with open(page, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for number, target in link_targets(lines):
            checked += 1
            why = site.check(page, target)
            if why:
                problems.add(shown, number, why)
        for number, span in code_spans(lines):
            for name, fields in api_names(span):
                why = api.check(name, fields)
                if why:
                    problems.add(shown, number, why)
    for path, line, message in sorted(problems.items, key=lambda p: (p[0], p[1])):
        print("%s:%d: %s" % (path, line, message))
    if problems.items:
        print("check_links: %d problem(s)" % len(problems.items), file=sys.stderr)
        return 1
    print("check_links: %d pages, %d links and the API names in their code: all good"
          % (len(pages(root)), checked))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
