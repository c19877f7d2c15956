#!/usr/bin/env python3
"""Validate the seed templates in this directory (statically, without Rust).

Usage: python3 check.py [file.json ...]   (default: every *.json next to this script)

Rules checked:
  * valid JSON, file under 150 KB, required keys and types
  * every page block is a library reference {"library", "vars"?, "sources"?, "effect"?}:
    the uid ("{category dir without NN-}/{file stem}") exists in ../blocks, and every name
    in "vars" and "sources" is a variable defined in that block's x-vars; "effect" uses only
    the known effect names; pages carry no "output" (the seed renders it)
  * every page starts with a header/* block (a header/02 notice bar may come first) and ends
    with a footer/* block; the home page has 4-7 blocks, other pages 3-6
  * db-fed lists ("source": "db:{slug}") name an existing table; their sub-variables'
    "dbfield" and, on collection pages, the bindings' "postfield" name a post value
    (name, slug, date, date_long, created_at, permalink, url, id) or a field slug of the page's table
  * exactly one page with slug "/" (and it is the only is_home page)
  * no "http://" / "https://" anywhere, except SVG namespace declarations
    (xmlns="http://www.w3.org/2000/svg", xmlns:xlink="http://www.w3.org/1999/xlink");
    no protocol-relative URLs, <link> tags or @import
  * a collection page's "table" names an existing table slug
  * table posts: unique slugs, ISO dates, values keyed by field slugs,
    required fields filled, select values among the options, currency values whole cents
  * internal links (in the effective values: link hrefs, href="/..." in rich text,
    "Label | /path" lines) point to existing pages or posts
  * blocks with a form: the library template posts to /_forms with a _subject and a hidden
    _gotcha honeypot, and the page sets the block's "subject"
Exit status 0 when everything passes, 1 otherwise.
"""
import datetime
import glob
import json
import os
import re
import sys
import tomllib

MAX_BYTES = 150 * 1024
CATEGORIES = {"Negócios", "Portfólio", "Blog"}
TOP_KEYS = {"name": str, "description": str, "category": str, "order": int,
            "project_meta": dict, "pages": list, "tables": list}
PAGE_KEYS = {"name": str, "slug": str, "description": str, "is_home": bool,
             "meta": dict, "blocks": list}
REF_KEYS = {"library", "vars", "sources", "effect"}
EFFECTS = {"fade-in", "enter-left", "enter-right", "enter-top", "enter-bottom", "zoom-in",
           "rotate-left", "rotate-right"}
POST_VALUES = {"name", "slug", "date", "date_long", "created_at", "permalink", "url", "id"}
BLOCKS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "blocks")
FIELD_TYPES = {"text", "textarea", "wysiwyg", "select", "number", "date", "currency",
               "image", "checkbox", "email", "url"}
SVG_NS = re.compile(
    r"""xmlns(?::xlink)?=(?:"|'|\\"|%22|%27)http://www\.w3\.org/(?:2000/svg|1999/xlink)""")


def load_library():
    """uid -> (template, variable definitions) for every block in ../blocks."""
    library = {}
    for cat in sorted(os.listdir(BLOCKS_DIR)):
        cdir = os.path.join(BLOCKS_DIR, cat)
        if not os.path.isdir(cdir):
            continue
        key = cat.split("-", 1)[1] if re.match(r"^\d+-", cat) else cat
        for fname in sorted(os.listdir(cdir)):
            if not fname.endswith(".toml") or fname == "category.toml":
                continue
            with open(os.path.join(cdir, fname), "rb") as f:
                block = tomllib.load(f)
            template = block.get("template", "")
            m = re.search(r"x-vars='([^']*)'", template)
            defs = json.loads(m.group(1)) if m else []
            library[f"{key}/{fname[:-5]}"] = (template, defs)
    return library


LIBRARY = load_library()


def effective_defs(block):
    """The block's variable definitions after its vars and sources are applied."""
    _, defs = LIBRARY[block["library"]]
    defs = json.loads(json.dumps(defs))
    by_name = {d.get("name"): d for d in defs}
    for name, value in (block.get("vars") or {}).items():
        if name in by_name:
            by_name[name]["value"] = value
    for name, settings in (block.get("sources") or {}).items():
        if name in by_name and isinstance(settings, dict):
            by_name[name].update(settings)
    return defs


def internal_hrefs(node):
    """Internal paths a value links to: link hrefs, href="/..." in rich text and
    "Label | /path" lines of link-list text areas."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "href" and isinstance(v, str) and v.startswith("/"):
                yield v
            else:
                yield from internal_hrefs(v)
    elif isinstance(node, list):
        for v in node:
            yield from internal_hrefs(v)
    elif isinstance(node, str):
        yield from re.findall(r'href="(/[^"]*)"', node)
        for line in node.splitlines():
            parts = line.split("|")
            if len(parts) > 1 and parts[-1].strip().startswith("/"):
                yield parts[-1].strip()


def strings(node, path="$"):
    if isinstance(node, str):
        yield path, node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from strings(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from strings(v, f"{path}[{i}]")


def check_types(obj, spec, where, errors):
    for key, typ in spec.items():
        if key not in obj:
            errors.append(f"{where}: missing key '{key}'")
        elif not isinstance(obj[key], typ) or (typ is int and isinstance(obj[key], bool)):
            errors.append(f"{where}: '{key}' should be {typ.__name__}")


def check_form(html, where, errors):
    for form in re.findall(r"<form\b.*?</form>", html, flags=re.S):
        if 'action="/_forms"' not in form or 'method="post"' not in form:
            errors.append(f"{where}: form must post to /_forms")
        if 'name="_subject"' not in form:
            errors.append(f"{where}: form lacks hidden _subject")
        m = re.search(r"<input[^>]*name=\"_gotcha\"[^>]*>", form)
        if not m or "display:none" not in m.group(0).replace(" ", ""):
            errors.append(f"{where}: form lacks _gotcha honeypot styled display:none")
        if 'type="submit"' not in form:
            errors.append(f"{where}: form lacks a submit button")


def check_block(b, where, tables, table, errors):
    """A page block: a library reference whose names exist in the block's x-vars."""
    if not isinstance(b, dict):
        errors.append(f"{where}: a block must be an object")
        return
    extra = set(b) - REF_KEYS
    if extra:
        errors.append(f"{where}: not a library reference (unexpected keys {sorted(extra)})")
    uid = b.get("library")
    if not isinstance(uid, str) or uid not in LIBRARY:
        errors.append(f"{where}: no library block {uid!r}")
        return
    template, defs = LIBRARY[uid]
    names = {d.get("name") for d in defs}
    for key in ("vars", "sources"):
        value = b.get(key, {})
        if not isinstance(value, dict):
            errors.append(f"{where}: '{key}' must be an object")
            continue
        for n in value:
            if n not in names:
                errors.append(f"{where}: {uid} has no field {n!r} ({key})")
        if key == "sources":
            for n, settings in value.items():
                if not isinstance(settings, dict):
                    errors.append(f"{where}: sources.{n} must be an object")
    effect = b.get("effect", "")
    if not isinstance(effect, str) or not set(effect.split()) <= EFFECTS:
        errors.append(f"{where}: unknown effect {effect!r}")
    if "<form" in template:
        check_form(template, f"{where} ({uid})", errors)
        if "subject" in names and not (b.get("vars") or {}).get("subject"):
            errors.append(f"{where}: set the form's 'subject' for this site")

    def binding_ok(value, tbl):
        fields = {f.get("slug") for f in tbl.get("fields", [])} if tbl else set()
        return value in POST_VALUES or value.removeprefix("fields.") in fields

    for d in effective_defs(b):
        src = d.get("source") or ""
        if isinstance(src, str) and src.startswith("db:"):
            tbl = tables.get(src[3:])
            if tbl is None:
                errors.append(f"{where}: {d.get('name')} reads unknown table {src[3:]!r}")
                continue
            for sub in d.get("vars", []):
                field = (sub.get("dbfield") or "").strip()
                if field and not binding_ok(field, tbl):
                    errors.append(f"{where}: {d.get('name')}.{sub.get('name')} dbfield "
                                  f"{field!r} is not a value of table {src[3:]!r}")
        field = (d.get("postfield") or "").strip() if isinstance(d.get("postfield"), str) else ""
        if field and table is not None and d.get("type") != "list" and not binding_ok(field, table):
            errors.append(f"{where}: {d.get('name')} postfield {field!r} is not a value of "
                          f"table {table.get('slug')!r}")


def check_file(path):
    errors = []
    name = os.path.basename(path)
    size = os.path.getsize(path)
    if size > MAX_BYTES:
        errors.append(f"{name}: {size} bytes, over {MAX_BYTES}")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        return [f"{name}: invalid JSON: {e}"]
    if not isinstance(data, dict):
        return [f"{name}: top level must be an object"]

    check_types(data, TOP_KEYS, name, errors)
    if data.get("category") not in CATEGORIES:
        errors.append(f"{name}: category must be one of {sorted(CATEGORIES)}")
    pm = data.get("project_meta", {})
    if not isinstance(pm.get("description"), str):
        errors.append(f"{name}: project_meta.description missing")
    font = pm.get("defaultFont")
    if not (isinstance(font, dict) and isinstance(font.get("family"), str)
            and isinstance(font.get("variants"), list)):
        errors.append(f"{name}: project_meta.defaultFont must have family and variants")

    # tables ---------------------------------------------------------------
    tables = {}
    post_slugs = {}
    for ti, t in enumerate(data.get("tables", []) or []):
        where = f"{name}: tables[{ti}]"
        check_types(t, {"name": str, "slug": str, "meta": dict, "fields": list, "posts": list},
                    where, errors)
        if t.get("slug") in tables:
            errors.append(f"{where}: duplicate table slug")
        tables[t.get("slug")] = t
        fields = {}
        for fi, fd in enumerate(t.get("fields", [])):
            fw = f"{where}.fields[{fi}]"
            check_types(fd, {"name": str, "slug": str, "type": str, "required": str,
                             "options": list, "meta": dict}, fw, errors)
            if fd.get("type") not in FIELD_TYPES:
                errors.append(f"{fw}: unknown type {fd.get('type')!r}")
            if fd.get("required") not in ("0", "1"):
                errors.append(f"{fw}: required must be \"0\" or \"1\"")
            fields[fd.get("slug")] = fd
        slugs = set()
        for pi, post in enumerate(t.get("posts", [])):
            pw = f"{where}.posts[{pi}]"
            check_types(post, {"name": str, "slug": str, "created_at": str, "fields": dict},
                        pw, errors)
            if post.get("slug") in slugs:
                errors.append(f"{pw}: duplicate post slug")
            slugs.add(post.get("slug"))
            try:
                datetime.datetime.fromisoformat(post.get("created_at", "").replace("Z", "+00:00"))
            except ValueError:
                errors.append(f"{pw}: created_at is not ISO 8601")
            values = post.get("fields", {})
            for k in values:
                if k not in fields:
                    errors.append(f"{pw}: value for unknown field '{k}'")
            for slug, fd in fields.items():
                v = values.get(slug)
                if fd.get("required") == "1" and not v:
                    errors.append(f"{pw}: required field '{slug}' empty")
                if fd.get("type") == "select" and v:
                    allowed = {o.get("name") for o in fd.get("options", [])}
                    if v not in allowed:
                        errors.append(f"{pw}: '{slug}' value {v!r} not in options")
                if fd.get("type") == "currency" and v is not None and (
                        not isinstance(v, int) or isinstance(v, bool)):
                    errors.append(f"{pw}: '{slug}' value {v!r} is not whole cents")
        post_slugs[t.get("slug")] = slugs

    # pages ----------------------------------------------------------------
    pages = data.get("pages", [])
    if not pages:
        errors.append(f"{name}: no pages")
    page_slugs = [p.get("slug") for p in pages]
    if page_slugs.count("/") != 1:
        errors.append(f"{name}: exactly one page must have slug '/' (found {page_slugs.count('/')})")
    if len(set(page_slugs)) != len(page_slugs):
        errors.append(f"{name}: duplicate page slugs")
    known = {"/" + (s or "").strip("/") for s in page_slugs}
    collection_prefix = {}
    for pi, p in enumerate(pages):
        where = f"{name}: page '{p.get('slug')}'"
        check_types(p, PAGE_KEYS, where, errors)
        if p.get("is_home") != (p.get("slug") == "/"):
            errors.append(f"{where}: is_home must be true exactly for slug '/'")
        if "table" in p:
            if p["table"] not in tables:
                errors.append(f"{where}: table '{p['table']}' does not exist")
            else:
                collection_prefix["/" + p["slug"].strip("/")] = p["table"]
        if "output" in p:
            errors.append(f"{where}: drop 'output' (the seed renders it)")
        table = tables.get(p.get("table")) if "table" in p else None
        blocks = p.get("blocks", [])
        for bi, b in enumerate(blocks):
            check_block(b, f"{where} block[{bi}]", tables, table, errors)
        if not blocks:
            errors.append(f"{where}: no blocks")
            continue
        uids = [b.get("library", "") if isinstance(b, dict) else "" for b in blocks]
        first = 1 if len(uids) > 1 and uids[0] == "header/02-barra-de-aviso" else 0
        if not uids[first].startswith("header/"):
            errors.append(f"{where}: must start with a header/* block")
        if not uids[-1].startswith("footer/"):
            errors.append(f"{where}: must end with a footer/* block")
        lo, hi = (4, 7) if p.get("slug") == "/" else (3, 6)
        if not lo <= len(blocks) <= hi:
            errors.append(f"{where}: {len(blocks)} blocks, expected {lo}-{hi}")

    # internal links ---------------------------------------------------------
    for p in pages:
        for b in p.get("blocks", []):
            if not (isinstance(b, dict) and b.get("library") in LIBRARY):
                continue
            for d in effective_defs(b):
                for href in internal_hrefs(d.get("value")):
                    if "{{" in href or "{%" in href:
                        continue
                    h = "/" + re.split(r"[#?]", href)[0].strip("/")
                    if h in known and h not in collection_prefix:
                        continue
                    head, _, tail = h.rpartition("/")
                    if (head in collection_prefix
                            and tail in post_slugs.get(collection_prefix[head], set())):
                        continue
                    errors.append(f"{name}: page '{p.get('slug')}' ({b['library']}) links to "
                                  f"unknown '{href}'")

    # external resources -----------------------------------------------------
    for where, s in strings(data):
        stripped = SVG_NS.sub("", s)
        low = stripped.lower()
        for bad in ("http://", "https://"):
            if bad in low:
                i = low.index(bad)
                errors.append(f"{name}: {where}: external URL near {stripped[max(0, i-30):i+40]!r}")
        if re.search(r"""(?:src|href|action)=["']//|url\(\s*["']?//""", low):
            errors.append(f"{name}: {where}: protocol-relative URL")
        if "<link" in low or "@import" in low:
            errors.append(f"{name}: {where}: <link> or @import not allowed")
    return errors


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    files = argv[1:] or sorted(glob.glob(os.path.join(here, "*.json")))
    if not files:
        print("no template files found")
        return 1
    failed = False
    for path in files:
        errs = check_file(path)
        if errs:
            failed = True
            print(f"FAIL {os.path.basename(path)}")
            for e in errs:
                print("  - " + e)
        else:
            print(f"ok   {os.path.basename(path)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
