#!/usr/bin/env python3
"""Validate the seed templates in this directory.

Usage: python3 check.py [file.json ...]   (default: every *.json next to this script)

Rules checked:
  * valid JSON, file under 150 KB, required keys and types
  * every page's "output" equals, for each block in order,
    "<style>" + css + "</style>" (only when css is non-empty) + template
    + "<script>" + js + "</script>" (only when js is non-empty)
  * exactly one page with slug "/" (and it is the only is_home page)
  * no "http://" / "https://" anywhere, except SVG namespace declarations
    (xmlns="http://www.w3.org/2000/svg", xmlns:xlink="http://www.w3.org/1999/xlink");
    no protocol-relative URLs, <link> tags or @import
  * a collection page's "table" names an existing table slug
  * table posts: unique slugs, ISO dates, values keyed by field slugs,
    required fields filled, select values among the options
  * internal links (href="/...") point to existing pages or posts
  * forms post to /_forms with a _subject and a hidden _gotcha honeypot
Exit status 0 when everything passes, 1 otherwise.
"""
import datetime
import glob
import json
import os
import re
import sys

MAX_BYTES = 150 * 1024
CATEGORIES = {"Negócios", "Portfólio", "Blog"}
TOP_KEYS = {"name": str, "description": str, "category": str, "order": int,
            "project_meta": dict, "pages": list, "tables": list}
PAGE_KEYS = {"name": str, "slug": str, "description": str, "is_home": bool,
             "meta": dict, "blocks": list, "output": str}
BLOCK_KEYS = {"uid": str, "name": str, "template": str, "css": str, "js": str}
FIELD_TYPES = {"text", "textarea", "wysiwyg", "select", "number", "date",
               "image", "checkbox", "email", "url"}
SVG_NS = re.compile(
    r"""xmlns(?::xlink)?=(?:"|'|\\"|%22|%27)http://www\.w3\.org/(?:2000/svg|1999/xlink)""")


def expected_output(blocks):
    out = []
    for b in blocks:
        if b.get("css"):
            out.append("<style>" + b["css"] + "</style>")
        out.append(b.get("template", ""))
        if b.get("js"):
            out.append("<script>" + b["js"] + "</script>")
    return "".join(out)


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
        uids = set()
        for bi, b in enumerate(p.get("blocks", [])):
            bw = f"{where} block[{bi}]"
            check_types(b, BLOCK_KEYS, bw, errors)
            if b.get("uid") in uids:
                errors.append(f"{bw}: duplicate uid {b.get('uid')!r}")
            uids.add(b.get("uid"))
        if p.get("output") != expected_output(p.get("blocks", [])):
            errors.append(f"{where}: output does not match the concatenation of its blocks")
        check_form(p.get("output", ""), where, errors)
        if not p.get("blocks"):
            errors.append(f"{where}: no blocks")

    # internal links ---------------------------------------------------------
    for p in pages:
        for href in re.findall(r'href="(/[^"#?]*)', p.get("output", "")):
            if "{{" in href or "{%" in href:
                continue
            h = "/" + href.strip("/")
            if h in known and h not in collection_prefix:
                continue
            head, _, tail = h.rpartition("/")
            if head in collection_prefix and tail in post_slugs.get(collection_prefix[head], set()):
                continue
            errors.append(f"{name}: page '{p.get('slug')}' links to unknown '{href}'")

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
