#!/usr/bin/env python3
"""check_report.py DIR: index.html of a run report references only files that
exist in DIR, nothing from the network, and every picture it shows; prints one
line per problem and exits 1 if there is any."""
import html.parser
import os
import sys
import urllib.parse

d = sys.argv[1]
problems = []


class Refs(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.imgs, self.rows, self.tables = [], [], 0, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.tables += 1
        if tag == "tr" and (a.get("class") or "").startswith("v-"):
            self.rows += 1
        for k in ("src", "href"):
            if k in a and a[k] is not None:
                self.refs.append((tag, k, a[k]))
        if tag == "img":
            self.imgs.append(a.get("src"))
        if tag in ("script", "link", "iframe", "object", "embed") and (a.get("src") or a.get("href")):
            v = a.get("src") or a.get("href")
            if not v.startswith("data:"):
                problems.append("%s loads %s: an index needs nothing from outside" % (tag, v))


p = Refs()
p.feed(open(os.path.join(d, "index.html"), encoding="utf-8").read())
for tag, k, v in p.refs:
    u = urllib.parse.urlparse(v)
    if u.scheme == "data":
        continue
    if u.scheme or u.netloc or v.startswith("/"):
        problems.append("%s %s=%s points outside the folder" % (tag, k, v))
        continue
    if u.path and not os.path.isfile(os.path.join(d, urllib.parse.unquote(u.path))):
        problems.append("%s %s=%s: no such file" % (tag, k, v))
if "@import" in open(os.path.join(d, "index.html"), encoding="utf-8").read():
    problems.append("the style imports something")
for s in problems:
    print(s)
print("images=%d rows=%d tables=%d refs=%d" % (len(p.imgs), p.rows, p.tables, len(p.refs)))
sys.exit(1 if problems else 0)
