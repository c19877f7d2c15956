#!/usr/bin/env python3
"""Validate the seeded block library in this directory (see docs/blocks.md).

Usage: python3 check.py [-v] [category-dir-or-block.toml ...]   (default: everything here)

Rules checked:
  * directories are named NN-key and hold a category.toml (name: str, order: int,
    icon: an inline <svg>); block files are named NN-slug.toml and hold name, order,
    keywords, template, css, js with the right types; block names are unique ignoring case
  * the first element of every template carries a single-quoted x-vars attribute holding a
    JSON array of variable definitions: names match [a-zA-Z_][a-zA-Z0-9_]*, are unique and
    are not site/page/post; types come from the doc's table; each default value has the
    shape the doc gives for its type (lists: sub-definitions, manual items or a db:/api:
    source with a non-empty collection; tables: columns with unique [a-z0-9_]+ keys)
  * no http:// or https:// anywhere except SVG namespace declarations; no protocol-relative
    URLs, <link> tags or @import
  * forms post to /_forms with a hidden _subject and a hidden _gotcha honeypot
  * the first element's first class is the block's own prefix (vt-<short>, unique across the
    library) and every CSS selector starts with it
  * no id attributes on HTML elements (a block may appear several times on one page)
  * each template compiles with Jinja2 (autoescape on, chainable undefined like the
    renderer) and renders to balanced HTML, with stand-ins for the renderer's filters
    (background, unit, padding, lines, split) and its working_link test (with a sample site's
    pages), three times: with the default values
    (database lists filled with sample records), with post-bound values taken from a sample
    post, and with every value emptied or zeroed (database lists empty, no post); when the
    minijinja Python package (the binding of the renderer's engine) is installed, each render
    is repeated with it, configured like shared/src/render/mod.rs (no pycompat, chainable
    undefined, HTML escaping, fuel), so engine differences are caught too
Exit status 0 when everything passes, 1 otherwise.
"""
import copy
import glob
import html.parser
import json
import os
import re
import sys
import tomllib

try:
    import jinja2
    from markupsafe import Markup
except ImportError:  # pragma: no cover
    print("jinja2 is required: pip install jinja2")
    sys.exit(1)

try:  # the Python binding of the renderer's engine (pip install minijinja); optional
    import minijinja
except ImportError:
    minijinja = None

HERE = os.path.dirname(os.path.abspath(__file__))
NAME_RE = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")
COLUMN_RE = re.compile(r"^[a-z0-9_]+$")
DIR_RE = re.compile(r"^\d\d-[a-z0-9-]+$")
FILE_RE = re.compile(r"^\d\d-[a-z0-9-]+\.toml$")
RESERVED = {"site", "page", "post"}
TYPES = {"text", "textarea", "richtext", "image", "link", "color", "background", "unit",
         "heading", "padding", "opacity", "number", "select", "checkbox", "list", "table"}
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6", "div", "p", "strong", "em", "del", "ins"}
BG_TYPES = {"solid", "gradient", "image"}
ANGLES = {90, 180, 45, 135}
POSITIONS = {f"{v} {h}" for v in ("top", "center", "bottom") for h in ("left", "center", "right")}
UNITS = {"auto", "px", "em", "%"}
OPS = {"=", "!=", ">", "<", ">=", "<=", "like"}
CATEGORY_KEYS = {"name": str, "order": int, "icon": str}
BLOCK_KEYS = {"name": str, "order": int, "keywords": str, "template": str, "css": str, "js": str}
SVG_NS = re.compile(
    r"""xmlns(?::xlink)?=(?:"|'|\\"|%22|%27)http://www\.w3\.org/(?:2000/svg|1999/xlink)""")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr", "path", "circle", "rect", "ellipse", "line", "polyline", "polygon",
        "stop", "use"}
SVG_ID_OK = {"lineargradient", "radialgradient", "clippath", "pattern", "mask", "filter",
             "symbol", "title"}

SAMPLE_POST = {
    "id": 7, "name": "Como escolher o café certo para o seu paladar",
    "slug": "como-escolher-o-cafe", "created_at": "2026-03-12T10:00:00+00:00",
    "date": "12/03/2026", "date_long": "12 de março de 2026",
    "permalink": "/blog/como-escolher-o-cafe", "url": "/blog/como-escolher-o-cafe",
    "fields": {
        "content": Markup("<p>Texto do post com <strong>negrito</strong>.</p>"),
        "image": "/uploads/cafe.jpg", "excerpt": "Um guia rápido para acertar na escolha.",
        "category": "Guias", "author": "Marina Duarte", "price": "R$ 49,90",
        "gallery": [{"src": "/uploads/a.jpg", "caption": "Primeira"},
                    {"src": "/uploads/b.jpg", "caption": "Segunda"}],
    },
}


# Stored values beside the formatted ones (`it.raw.price` is cents, `it.fields.price` text).
SAMPLE_POST["raw"] = {**SAMPLE_POST["fields"], "price": 4990}


# --- stand-ins for the renderer's filters ---------------------------------------------
def _num(v, default=0):
    if isinstance(v, bool):
        return default
    if isinstance(v, (int, float)):
        return int(v) if float(v).is_integer() else v
    try:
        f = float(str(v))
        return int(f) if f.is_integer() else f
    except (TypeError, ValueError):
        return default


def f_background(v):
    if not isinstance(v, dict):
        return ""
    t, c, c2 = v.get("type") or "solid", v.get("color") or "", v.get("color2") or ""
    if t == "gradient" and c and c2:
        return f"background:linear-gradient({_num(v.get('angle'), 180)}deg,{c},{c2})"
    if t == "image" and v.get("image"):
        pos = v.get("position") or "center center"
        return (f"background:{c or 'transparent'} url(\"{v['image']}\") {pos}/cover no-repeat")
    return f"background:{c}" if c else ""


def f_unit(v):
    if not isinstance(v, dict):
        return "auto"
    val, u = v.get("value"), v.get("unit") or "auto"
    if u == "auto" or val is None or val == "":
        return "auto"
    return f"{_num(val)}{u}"


def f_padding(v):
    if not isinstance(v, dict):
        return "0px"
    return " ".join(f"{max(0, _num(v.get(k)))}px" for k in ("top", "right", "bottom", "left"))


def f_lines(v):
    if v is None or isinstance(v, jinja2.Undefined):
        return []
    return str(v).splitlines()


def f_split(v, sep=None, maxsplits=None):
    s = str(v)
    if maxsplits is None:
        return s.split(sep)
    return s.split(sep, maxsplits)


SAMPLE_PAGES = ["/", "/sobre", "/contato", "/blog", "/blog/*", "/produtos"]


def t_working_link(href):
    """Stand-in for the renderer's working_link test (shared/src/render/mod.rs), with the
    sample site's pages."""
    href = str(href or "").strip()
    if href in ("", "#"):
        return False
    if href.startswith("#") or re.match(r"^(https?:|mailto:|tel:|//)", href, re.I):
        return True
    if re.match(r"^[a-z][a-z0-9+.-]*:", href, re.I):
        return False
    path = re.split(r"[?#]", href)[0].strip("/")
    if not path:
        return "/" in SAMPLE_PAGES
    segs = path.split("/")
    for p in SAMPLE_PAGES:
        p = p.strip("/")
        if p.endswith("/*"):
            if len(segs) == 2 and segs[0] == p[:-2]:
                return True
        elif p == path:
            return True
    return False


def make_env():
    env = jinja2.Environment(autoescape=True, undefined=jinja2.ChainableUndefined)
    env.filters.update(background=f_background, unit=f_unit, padding=f_padding,
                       lines=f_lines, split=f_split)
    env.tests.update(working_link=t_working_link)
    return env


def make_mj_env():
    """A MiniJinja environment set up like shared/src/render/mod.rs (no pycompat, chainable
    undefined, HTML auto-escaping, the same fuel); lines and split are MiniJinja's own."""
    if minijinja is None:
        return None
    return minijinja.Environment(
        undefined_behavior="chainable", pycompat=False, fuel=200_000,
        auto_escape_callback=lambda name: "html",
        filters={"background": f_background, "unit": f_unit, "padding": f_padding},
        tests={"working_link": t_working_link})


def to_mj(v):
    if isinstance(v, Markup):
        return minijinja.safe(str(v))
    if isinstance(v, dict):
        return {k: to_mj(x) for k, x in v.items()}
    if isinstance(v, list):
        return [to_mj(x) for x in v]
    return v


# --- helpers --------------------------------------------------------------------------
def first_tag_attrs(template):
    """Returns (tag, {attr: value}) of the first element, or raises ValueError."""
    m = re.match(r"\s*<([a-zA-Z][a-zA-Z0-9-]*)", template)
    if not m:
        raise ValueError("the template does not start with an element")
    i, attrs, s = m.end(), {}, template
    while True:
        while i < len(s) and s[i].isspace():
            i += 1
        if i >= len(s):
            raise ValueError("first element is not closed")
        if s[i] == ">" or s.startswith("/>", i):
            return m.group(1).lower(), attrs
        am = re.match(r"[^\s=>/]+", s[i:])
        if not am:
            raise ValueError(f"cannot parse attributes near {s[i:i+30]!r}")
        name = am.group(0).lower()
        i += am.end()
        while i < len(s) and s[i].isspace():
            i += 1
        if i < len(s) and s[i] == "=":
            i += 1
            while i < len(s) and s[i].isspace():
                i += 1
            q = s[i] if i < len(s) else ""
            if q in "'\"":
                j = s.find(q, i + 1)
                if j < 0:
                    raise ValueError(f"unterminated {name} attribute")
                attrs[name] = (q, s[i + 1:j])
                i = j + 1
            else:
                vm = re.match(r"[^\s>]*", s[i:])
                attrs[name] = ("", vm.group(0))
                i += vm.end()
        else:
            attrs[name] = ("", "")


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check_value(d, where, errors, in_list=False):
    """Checks one definition and its default value."""
    t, v = d.get("type"), d.get("value")
    name = d.get("name")
    if not isinstance(name, str) or not NAME_RE.match(name):
        errors.append(f"{where}: bad name {name!r}")
    if t not in TYPES:
        errors.append(f"{where}: unknown type {t!r}")
        return
    if not isinstance(d.get("label"), str) or not d["label"].strip():
        errors.append(f"{where}: missing label")
    if "postfield" in d:
        if t == "list" or in_list:
            errors.append(f"{where}: postfield only on top-level non-list definitions")
        if not isinstance(d["postfield"], str) or not d["postfield"]:
            errors.append(f"{where}: postfield must be a non-empty string")
    if "dbfield" in d and (not in_list or not isinstance(d["dbfield"], str) or not d["dbfield"]):
        errors.append(f"{where}: dbfield only on list sub-definitions, as a non-empty string")

    def bad(msg):
        errors.append(f"{where} ({t}): {msg}; got {v!r}"[:300])

    if t in ("text", "textarea", "richtext"):
        if not isinstance(v, str):
            bad("value must be a string")
    elif t == "image":
        if not (isinstance(v, dict) and isinstance(v.get("src"), str) and isinstance(v.get("alt"), str)):
            bad("value must be {src, alt}")
    elif t == "link":
        if not (isinstance(v, dict) and isinstance(v.get("href"), str)
                and isinstance(v.get("label"), str) and v.get("target") in ("_self", "_blank")):
            bad("value must be {href, label, target: _self|_blank}")
    elif t == "color":
        if not (isinstance(v, str) and re.match(r"^#[0-9a-fA-F]{6}$", v)):
            bad("value must be #rrggbb")
    elif t == "background":
        ok = (isinstance(v, dict) and v.get("type") in BG_TYPES
              and isinstance(v.get("color"), str) and isinstance(v.get("color2", ""), str)
              and v.get("angle", 180) in ANGLES and isinstance(v.get("image", ""), str)
              and v.get("position", "center center") in POSITIONS)
        if not ok:
            bad("value must be {type, color, color2, angle, image, position} per the doc")
    elif t == "unit":
        if not (isinstance(v, dict) and (v.get("value") is None or is_num(v.get("value")))
                and v.get("unit") in UNITS):
            bad("value must be {value: number|null, unit: auto|px|em|%}")
    elif t == "heading":
        if v not in HEADINGS:
            bad("value must be a heading tag")
    elif t == "padding":
        if not (isinstance(v, dict) and all(is_num(v.get(k)) and v[k] >= 0
                                            for k in ("top", "right", "bottom", "left"))):
            bad("value must be {top, right, bottom, left} numbers >= 0")
    elif t == "opacity":
        if not (is_num(v) and 0 <= v <= 1 and abs(v * 10 - round(v * 10)) < 1e-9):
            bad("value must be 0..1 in steps of 0.1")
    elif t == "number":
        if not is_num(v):
            bad("value must be a number")
        for k in ("min", "max", "step"):
            if k in d and not is_num(d[k]):
                errors.append(f"{where}: {k} must be a number")
        if is_num(v) and is_num(d.get("min")) and v < d["min"]:
            bad("value below min")
        if is_num(v) and is_num(d.get("max")) and v > d["max"]:
            bad("value above max")
    elif t == "select":
        opts = d.get("options")
        if not (isinstance(opts, list) and opts and all(
                isinstance(o, dict) and isinstance(o.get("name"), str)
                and isinstance(o.get("value"), str) for o in opts)):
            errors.append(f"{where}: select needs options [{{name, value}}]")
        elif v not in [o["value"] for o in opts]:
            bad("value must be one of the options")
    elif t == "checkbox":
        if not isinstance(v, bool):
            bad("value must be a boolean")
    elif t == "list":
        if in_list:
            errors.append(f"{where}: lists cannot be nested")
        subs = d.get("vars")
        if not isinstance(subs, list) or not subs:
            errors.append(f"{where}: list needs sub-definitions in vars")
            subs = []
        seen = set()
        for i, s in enumerate(subs):
            if not isinstance(s, dict):
                errors.append(f"{where}.vars[{i}]: not an object")
                continue
            if s.get("name") in seen:
                errors.append(f"{where}.vars[{i}]: duplicate name {s.get('name')!r}")
            seen.add(s.get("name"))
            check_value(s, f"{where}.vars[{i}]", errors, in_list=True)
        src = d.get("source", "manual")
        if not isinstance(src, str):
            errors.append(f"{where}: source must be a string")
        elif src.startswith("db:"):
            if not (src[3:].strip() or str(d.get("dbtable", "")).strip()):
                errors.append(f"{where}: db: source names no collection")
            if "dbfilterquery" in d and d["dbfilterquery"] not in OPS | {""}:
                errors.append(f"{where}: bad dbfilterquery")
            if "dborderdir" in d and d["dborderdir"] not in ("asc", "desc"):
                errors.append(f"{where}: bad dborderdir")
            if "dblimit" in d and not (isinstance(d["dblimit"], int) and 1 <= d["dblimit"] <= 100):
                errors.append(f"{where}: dblimit must be 1..100")
        elif src.startswith("api:"):
            if not isinstance(d.get("sourceMap", {}), dict):
                errors.append(f"{where}: sourceMap must be an object")
        elif src != "manual":
            errors.append(f"{where}: source must be manual, db:… or api:…")
        if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
            bad("value must be a list of objects")
        else:
            for k, item in enumerate(v):
                for s in subs:
                    if isinstance(s, dict) and s.get("name") in item:
                        fake = dict(s, value=item[s["name"]])
                        fake.pop("dbfield", None)
                        check_value(fake, f"{where}.value[{k}].{s.get('name')}", errors, in_list=True)
    elif t == "table":
        cols = d.get("columns")
        keys = []
        if not isinstance(cols, list) or not cols:
            errors.append(f"{where}: table needs columns")
            cols = []
        for i, c in enumerate(cols):
            if not (isinstance(c, dict) and isinstance(c.get("key"), str)
                    and COLUMN_RE.match(c["key"]) and isinstance(c.get("label"), str)
                    and c["label"].strip()):
                errors.append(f"{where}.columns[{i}]: needs key [a-z0-9_]+ and a label")
                continue
            if c["key"] in keys:
                errors.append(f"{where}.columns[{i}]: the column ID already exists")
            keys.append(c["key"])
        if not isinstance(v, list) or not all(isinstance(r, dict) for r in v):
            bad("value must be a list of row objects")
        else:
            for r in v:
                for k in r:
                    if k not in keys:
                        errors.append(f"{where}: row key {k!r} is not a column")


def emptied(v):
    if isinstance(v, bool):
        return False
    if isinstance(v, (int, float)):
        return 0
    if isinstance(v, str):
        return ""
    if isinstance(v, list):
        return []
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            # enumerations keep a valid member (an owner can only pick among them)
            out[k] = x if k in ("type", "unit", "target", "position", "angle") else emptied(x)
        return out
    return v


def post_value(pf):
    if pf in ("name", "date", "date_long", "permalink", "url", "slug"):
        return SAMPLE_POST[pf]
    if pf.startswith("raw."):
        return SAMPLE_POST["raw"].get(pf[4:], "Valor do campo")
    return SAMPLE_POST["fields"].get(pf, "Valor do campo")


def db_records(d):
    recs = []
    for n in range(3):
        r = copy.deepcopy(SAMPLE_POST)
        r["id"] = n + 1
        r["name"] = f"{r['name']} ({n + 1})"
        r["slug"] = f"{r['slug']}-{n + 1}"
        r["permalink"] = r["url"] = f"/blog/{r['slug']}"
        for s in d.get("vars", []):
            f = s.get("dbfield")
            if f in ("name", "slug", "date", "date_long", "permalink", "url", "created_at"):
                r[s["name"]] = r[f]
            elif f and f.startswith("raw."):
                r[s["name"]] = r["raw"].get(f[4:], s.get("value"))
            elif f:
                r[s["name"]] = r["fields"].get(f, s.get("value"))
            else:
                r[s["name"]] = s.get("value")
        recs.append(r)
    return recs


class Balance(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.problems = [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img" and "alt" not in a:
            self.problems.append("<img> without alt")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        if tag == "img" and "alt" not in dict(attrs):
            self.problems.append("<img> without alt")

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()
        elif tag in self.stack:
            while self.stack and self.stack[-1] != tag:
                self.problems.append(f"<{self.stack.pop()}> not closed before </{tag}>")
            self.stack.pop()
        else:
            self.problems.append(f"stray </{tag}>")


def html_problems(text):
    p = Balance()
    p.feed(text)
    p.close()
    return p.problems + [f"<{t}> never closed" for t in p.stack if t not in ("p", "li")]


def check_external(where, s, errors):
    stripped = SVG_NS.sub("", s)
    low = stripped.lower()
    for bad in ("http://", "https://"):
        if bad in low:
            i = low.index(bad)
            errors.append(f"{where}: external URL near {stripped[max(0, i-30):i+40]!r}")
    if re.search(r"""(?:src|href|action)=\\?["']//|url\(\s*["']?//""", low):
        errors.append(f"{where}: protocol-relative URL")
    if "<link" in low or "@import" in low:
        errors.append(f"{where}: <link> or @import not allowed")


def check_form(html_text, where, errors):
    for form in re.findall(r"<form\b.*?</form>", html_text, flags=re.S):
        if 'action="/_forms"' not in form or 'method="post"' not in form:
            errors.append(f"{where}: form must post to /_forms")
        if not re.search(r'<input[^>]*type="hidden"[^>]*name="_subject"', form):
            errors.append(f"{where}: form lacks hidden _subject")
        m = re.search(r"<input[^>]*name=\"_gotcha\"[^>]*>", form)
        if not m or "display:none" not in m.group(0).replace(" ", ""):
            errors.append(f"{where}: form lacks _gotcha honeypot styled display:none")
        if 'type="submit"' not in form:
            errors.append(f"{where}: form lacks a submit button")


def css_selectors(css):
    """Yields every selector of a stylesheet (at-rule preludes excluded)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    depth, buf, out = 0, "", []
    for ch in css:
        if ch == "{":
            prelude = buf.strip()
            if not prelude.startswith("@"):
                out.extend(p.strip() for p in prelude.split(","))
            buf = ""
            depth += 1
        elif ch == "}":
            buf = ""
            depth -= 1
        elif ch == ";" :
            buf = ""
        else:
            buf += ch
    return [s for s in out if s and not re.match(r"^(from|to|\d+%)$", s)]


def check_css_scope(where, prefix, css, errors):
    pat = re.compile(r"^\." + re.escape(prefix) + r"(?![a-zA-Z0-9_])")
    for sel in css_selectors(css):
        if not pat.match(sel):
            errors.append(f"{where}: CSS selector {sel!r} is not scoped under .{prefix}")
            break


def check_block(path, data, env, errors, verbose=False, prefixes=None, mj=None):
    where = os.path.relpath(path, HERE)
    for key, typ in BLOCK_KEYS.items():
        if key not in data:
            errors.append(f"{where}: missing key '{key}'")
        elif not isinstance(data[key], typ) or (typ is int and isinstance(data[key], bool)):
            errors.append(f"{where}: '{key}' should be {typ.__name__}")
    if errors and any(e.startswith(where) for e in errors):
        return
    for key in ("name", "keywords", "template"):
        if not data[key].strip():
            errors.append(f"{where}: '{key}' is empty")
    for key in ("name", "keywords", "template", "css", "js"):
        check_external(f"{where}: {key}", data[key], errors)
    tpl = data["template"]
    try:
        tag, attrs = first_tag_attrs(tpl)
    except ValueError as e:
        errors.append(f"{where}: {e}")
        return
    m = re.match(r"\s*(vt-[a-z0-9]+)(?![a-z0-9_-])", attrs.get("class", ("", ""))[1])
    prefix = m.group(1) if m else ""
    if not prefix:
        errors.append(f"{where}: the first element's first class should be the block prefix vt-<short>")
    else:
        if prefixes is not None:
            if prefix in prefixes:
                errors.append(f"{where}: class prefix {prefix} already used by {prefixes[prefix]}")
            prefixes[prefix] = where
        check_css_scope(where, prefix, data["css"], errors)
    if "x-vars" not in attrs:
        errors.append(f"{where}: first element <{tag}> has no x-vars attribute")
        return
    quote, raw = attrs["x-vars"]
    if quote != "'":
        errors.append(f"{where}: x-vars must be single-quoted")
    try:
        defs = json.loads(raw)
    except ValueError as e:
        errors.append(f"{where}: x-vars error: {e}")
        return
    if not isinstance(defs, list) or not all(isinstance(d, dict) for d in defs):
        errors.append(f"{where}: x-vars error: not an array of objects")
        return
    names = set()
    for i, d in enumerate(defs):
        n = d.get("name")
        if n in RESERVED:
            errors.append(f"{where}: x-vars[{i}]: reserved name {n!r}")
        if n in names:
            errors.append(f"{where}: x-vars[{i}]: duplicate name {n!r}")
        names.add(n)
        check_value(d, f"{where}: x-vars[{i}] {n}", errors)
    # variables the template reads but does not define (apart from loop variables etc.)
    without = tpl.replace(f"x-vars={quote}{raw}{quote}", "", 1)
    if re.search(r"<(?!/)(?!(?:%s)\b)[a-zA-Z][a-zA-Z0-9]*\b[^>]*\sid=" % "|".join(SVG_ID_OK),
                 without, flags=re.I):
        # ids inside svg gradients etc. are fine; anything else breaks with two instances
        for m in re.finditer(r"<([a-zA-Z][a-zA-Z0-9]*)\b[^>]*\sid=", without):
            if m.group(1).lower() not in SVG_ID_OK:
                errors.append(f"{where}: <{m.group(1)}> has an id (blocks may repeat on a page)")
                break
    try:
        t = env.from_string(without)
    except jinja2.TemplateSyntaxError as e:
        errors.append(f"{where}: template syntax error line {e.lineno}: {e.message}")
        return

    base = {"site": {"name": "Padaria Grão Dourado", "slug": "grao-dourado"},
            "page": {"name": "Início", "slug": "/"}}
    defaults, bound, empty = dict(base), dict(base), dict(base)
    for d in defs:
        n, v = d.get("name"), copy.deepcopy(d.get("value"))
        if d.get("type") == "richtext" and isinstance(v, str):
            v = Markup(v)
        if d.get("type") == "list" and str(d.get("source", "")).startswith("db:"):
            defaults[n] = bound[n] = db_records(d)
            empty[n] = []
            continue
        defaults[n] = v
        bound[n] = post_value(d["postfield"]) if "postfield" in d else v
        empty[n] = emptied(v)
    bound["post"] = SAMPLE_POST
    for label, ctx in (("defaults", defaults), ("post", bound), ("empty", empty)):
        try:
            out = t.render(**ctx)
        except Exception as e:  # noqa: BLE001 - any render failure is a finding
            errors.append(f"{where}: render with {label} values failed: {type(e).__name__}: {e}")
            continue
        for p in html_problems(out)[:5]:
            errors.append(f"{where}: rendered with {label} values: {p}")
        check_form(out, f"{where} ({label})", errors)
        check_external(f"{where}: rendered with {label} values", out, errors)
        if verbose and label == "defaults":
            print(out)
        if mj is not None:
            try:
                mj.render_str(without, **to_mj(ctx))
            except Exception as e:  # noqa: BLE001
                msg = str(e).splitlines()[0] if str(e) else type(e).__name__
                errors.append(f"{where}: MiniJinja render with {label} values failed: {msg}")


def main(argv):
    verbose = "-v" in argv
    args = [a for a in argv[1:] if a != "-v"]
    env = make_env()
    mj = make_mj_env()
    if mj is None:
        print("note: the minijinja Python package is not installed; rendering with Jinja2 only")
    errors = []
    dirs = sorted(d for d in glob.glob(os.path.join(HERE, "*")) if os.path.isdir(d)
                  and not os.path.basename(d).startswith((".", "_")))
    if not dirs:
        print("no category directories found")
        return 1
    names, count, prefixes = {}, 0, {}
    for cdir in dirs:
        cname = os.path.basename(cdir)
        if not DIR_RE.match(cname):
            errors.append(f"{cname}: directory must be named NN-key")
        cpath = os.path.join(cdir, "category.toml")
        try:
            with open(cpath, "rb") as f:
                cat = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError) as e:
            errors.append(f"{cname}/category.toml: {e}")
            cat = {}
        for key, typ in CATEGORY_KEYS.items():
            if not isinstance(cat.get(key), typ) or isinstance(cat.get(key), bool):
                errors.append(f"{cname}/category.toml: '{key}' should be {typ.__name__}")
        icon = cat.get("icon", "")
        if isinstance(icon, str):
            if not icon.strip().startswith("<svg") or not icon.strip().endswith("</svg>"):
                errors.append(f"{cname}/category.toml: icon must be an inline <svg>")
            check_external(f"{cname}/category.toml: icon", icon, errors)
        files = sorted(glob.glob(os.path.join(cdir, "*.toml")))
        for path in files:
            base = os.path.basename(path)
            if base == "category.toml":
                continue
            if args and not any(os.path.abspath(a) in (os.path.abspath(path), os.path.abspath(cdir))
                                for a in args):
                continue
            if not FILE_RE.match(base):
                errors.append(f"{cname}/{base}: file must be named NN-slug.toml")
            try:
                with open(path, "rb") as f:
                    data = tomllib.load(f)
            except tomllib.TOMLDecodeError as e:
                errors.append(f"{cname}/{base}: invalid TOML: {e}")
                continue
            count += 1
            n = str(data.get("name", "")).strip().lower()
            if n in names:
                errors.append(f"{cname}/{base}: name {data.get('name')!r} already used by {names[n]}")
            names[n] = f"{cname}/{base}"
            before = len(errors)
            check_block(path, data, env, errors, verbose, prefixes, mj)
            print(("ok   " if len(errors) == before else "FAIL ") + f"{cname}/{base}")
    for e in errors:
        print("  - " + e)
    print(f"{count} blocks in {len(dirs)} categories, {len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
