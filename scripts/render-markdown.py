#!/usr/bin/env python3
"""Renders Markdown with the independent CommonMark parser `markdown-it-py` and prints what a
reader sees, as JSON: the level-2 headings' text, and for each top-level list item its text
and the texts of the items nested under it. Used by the tests to check the markdown output.

Usage: render-markdown.py FILE
"""
import json
import sys
from html.parser import HTMLParser

from markdown_it import MarkdownIt


class Reader(HTMLParser):
    def __init__(self):
        super().__init__()
        self.headings, self.items, self.stack, self.text = [], [], [], None

    def handle_starttag(self, tag, attrs):
        if tag == "h2":
            self.text = ""
        elif tag == "li":
            self.stack.append({"text": "", "nested": []})

    def handle_endtag(self, tag):
        if tag == "h2":
            self.headings.append(self.text)
            self.text = None
        elif tag == "li":
            item = self.stack.pop()
            item["text"] = item["text"].strip()
            if self.stack:
                self.stack[-1]["nested"].append(item["text"])
            else:
                self.items.append(item)

    def handle_data(self, data):
        if self.text is not None:
            self.text += data
        elif self.stack:
            self.stack[-1]["text"] += data


html = MarkdownIt("commonmark").render(open(sys.argv[1], encoding="utf-8").read())
reader = Reader()
reader.feed(html)
print(json.dumps({"headings": reader.headings, "items": reader.items, "html": html}, ensure_ascii=False))
