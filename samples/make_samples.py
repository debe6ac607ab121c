#!/usr/bin/env python3
"""Write warcsift's own small WARC sample: samples/sample.warc.gz and samples/expected.json.

Usage: python3 samples/make_samples.py [--out DIR]   (Python 3.11+, standard library only;
       default DIR: this folder. CI writes to a scratch folder and compares with `cmp`.)

Every page below was written for this sample (no third-party content). The output is
byte-identical on every run: fixed dates, record ids from uuid5 over fixed names, gzip
members with mtime 0, no randomness, no dependence on the current directory.

The file is laid out as Common Crawl writes its WARC files: WARC/1.0, one gzip member per
record, a `warcinfo` record first, then `request` + `response` (+ sometimes `metadata`)
per fetched URL, with sha1 base32 `WARC-Block-Digest` / `WARC-Payload-Digest`. On purpose
it also holds the awkward cases a WARC-to-text tool meets in real crawls: a non-HTML
response (PNG, JSON), a `resource` record with an HTML page stored directly, a `revisit`
record, a truncated response (`WARC-Truncated: length`), a chunked and a gzip-encoded
HTTP payload, a page in windows-1252, one in Shift_JIS declared only in <meta>, one whose
declared charset is wrong, and one written entirely on one line.

Digests follow what Common Crawl, Heritrix and warcio compute: the block digest over the
whole record block, the payload digest over the bytes after the HTTP header as stored
(still chunked / still gzip-compressed where the HTTP headers say so).

expected.json lists, for every page a tool should keep, its URL, WARC-Record-ID, the true
charset, sentences that MUST appear in its main text, boilerplate strings that must NOT
(trafilatura removes every one of them) and, for some pages, boilerplate that SHOULD NOT
appear but that established extractors keep (a soft target). Compare after collapsing
runs of whitespace to one space. It also gives the record counts.
"""

import base64
import gzip
import hashlib
import json
import pathlib
import struct
import uuid
import zlib

HERE = pathlib.Path(__file__).resolve().parent
WARC_NAME = "sample.warc.gz"
NAMESPACE = uuid.UUID("6f0c4d1e-2b7a-5c39-9e51-7a3d2c8b4f10")  # fixed: record ids are uuid5(NAMESPACE, name)
CRLF = b"\r\n"


# --------------------------------------------------------------------------- helpers

def rid(name):
    return f"<urn:uuid:{uuid.uuid5(NAMESPACE, name)}>"


def sha1_b32(data):
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode("ascii")


def http_date(warc_date):
    """'2024-02-21T06:14:03Z' -> 'Wed, 21 Feb 2024 06:14:03 GMT' (fixed table, no locale)."""
    import datetime as dt
    d = dt.datetime.strptime(warc_date, "%Y-%m-%dT%H:%M:%SZ")
    days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    return f"{days[d.weekday()]}, {d.day:02d} {months[d.month - 1]} {d.year} {d:%H:%M:%S} GMT"


def gz(data):
    # mtime=0 and a fixed level: the same bytes on every run.
    return gzip.compress(data, compresslevel=9, mtime=0)


def chunk(body, cuts, upper_at=None):
    """HTTP/1.1 chunked transfer coding of body, split at the given offsets. The size of
    chunk number upper_at is written in upper-case hex (legal, and seen in the wild). No chunk
    extensions: legal too, but fastwarc refuses them and real crawls practically never have them."""
    out, start = [], 0
    for i, end in enumerate(list(cuts) + [len(body)]):
        piece = body[start:end]
        size = f"{len(piece):X}" if i == upper_at else f"{len(piece):x}"
        out.append(size.encode() + CRLF + piece + CRLF)
        start = end
    out.append(b"0" + CRLF + CRLF)
    return b"".join(out)


def tiny_png():
    """A valid 16x16 PNG (a blue square with a white diagonal), built with zlib."""
    w = h = 16
    rows = []
    for y in range(h):
        row = bytearray([0])  # filter: none
        for x in range(w):
            row += bytes((255, 255, 255)) if x == y else bytes((30, 90, 200))
        rows.append(bytes(row))
    raw = b"".join(rows)

    def png_chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr)
            + png_chunk(b"IDAT", zlib.compress(raw, 9)) + png_chunk(b"IEND", b""))


def check_sjis(text):
    """Shift_JIS bytes that decode to the same text under WHATWG's decoder (which is cp932)."""
    data = text.encode("shift_jis")
    assert data.decode("cp932") == text, "a character maps differently in cp932 / WHATWG Shift_JIS"
    return data


def check_1252(text):
    data = text.encode("cp1252")
    assert not any(b in data for b in (0x81, 0x8D, 0x8F, 0x90, 0x9D)), "undefined in windows-1252"
    return data


# --------------------------------------------------------------------------- pages
# Each page: name, url, http headers, body bytes, expectations. Main content is kept apart
# from the boilerplate around it; MUST strings sit in the main content only, NOT strings in
# the boilerplate only.

NEWS_HTML = """<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ferry service to Inishmore restored after three-week storm closure | The Harbour Times</title>
<meta name="description" content="The harbour authority has reopened the pier at Kilronan after repairs to storm damage.">
<meta property="og:type" content="article">
<link rel="canonical" href="https://www.harbourtimes.example.com/news/2024/02/ferry-service-restored">
<link rel="stylesheet" href="/static/css/site.4f2a9c.css">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Ferry service to Inishmore restored after three-week storm closure","datePublished":"2024-02-20T07:30:00Z","author":{"@type":"Person","name":"Maria Lindqvist"}}</script>
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); gtag('config', 'G-HT0000000');</script>
<style>.ad-banner{min-height:90px;background:#f4f4f4}.cookie-consent{position:fixed;bottom:0}</style>
</head>
<body class="article-page">
<div id="cookie-consent" class="cookie-consent" role="dialog" aria-label="Cookie consent">
  <p>We use cookies to personalise content and ads and to analyse our traffic. By clicking &ldquo;Accept all&rdquo; you agree to the storing of cookies on your device.</p>
  <button class="btn accept">Accept all</button> <button class="btn">Manage preferences</button>
</div>
<header class="site-header">
  <div class="top-bar"><a href="/subscribe">Subscribe from &pound;1 a week</a> | <a href="/login">Sign in to your account</a> | <a href="/newsletters">Newsletters</a></div>
  <a class="logo" href="/"><img src="/static/img/logo.svg" alt="The Harbour Times"></a>
  <nav class="main-nav" aria-label="Sections">
    <ul>
      <li><a href="/">Home</a></li>
      <li><a href="/news">News</a></li>
      <li><a href="/news/local">Local</a></li>
      <li><a href="/business">Business</a></li>
      <li><a href="/sport">Sport</a></li>
      <li><a href="/opinion">Opinion</a></li>
      <li><a href="/lifestyle">Lifestyle</a></li>
      <li><a href="/weather">Weather and Tides</a></li>
      <li><a href="/jobs">Jobs Board</a></li>
    </ul>
  </nav>
</header>
<div class="ad-banner" id="ad-top">
  <span class="ad-label">Advertisement</span>
  <iframe src="https://ads.adnetwork.example.net/serve?slot=leaderboard&amp;site=ht" width="728" height="90" title="Advertisement"></iframe>
</div>
<main id="content">
<article class="story">
  <p class="kicker"><a href="/news/local">Local news</a></p>
  <h1>Ferry service to Inishmore restored after three-week storm closure</h1>
  <p class="byline">By <a href="/authors/maria-lindqvist" rel="author">Maria Lindqvist</a>, Islands Correspondent &middot; <time datetime="2024-02-20T07:30:00Z">20 February 2024, 07:30</time></p>
  <div class="share-buttons"><a href="#" class="share fb">Share on Facebook</a> <a href="#" class="share x">Share on X</a> <a href="#" class="share mail">Email this story</a></div>
  <figure><img src="/media/2024/02/kilronan-pier.jpg" alt="Workers on the pier at Kilronan" width="800" height="450"><figcaption>Repair crews finished work on the outer pier on Monday evening.</figcaption></figure>
  <p>Passenger ferries to Inishmore will resume a full timetable from Wednesday morning, ending a closure that left the island without a scheduled sailing for more than three weeks.</p>
  <p>The pier at Kilronan was badly damaged on the night of 28 January, when storm-force winds drove waves over the harbour wall and tore away a section of the loading ramp.</p>
  <p>&ldquo;We had engineers on the pier as soon as it was safe to stand on it,&rdquo; said Fiona Mulkerrin, the harbour master. &ldquo;The ramp has been rebuilt and tested with a fully loaded vessel, and we are satisfied that it&rsquo;s ready for passengers.&rdquo;</p>
  <p>During the closure, islanders relied on a small cargo boat and on the air service from Connemara, which added four extra flights a day. Shops on the island reported shortages of fresh milk and bread during the second week.</p>
  <h2>Timetable changes</h2>
  <p>The operator said the first sailing on Wednesday will leave Rossaveal at 08:15, with departures every two hours until 18:15. Tickets bought for cancelled sailings remain valid until the end of March.</p>
  <p>Local councillors have called for a review of the harbour&rsquo;s storm defences, which were last upgraded in 2009. A report is expected before the summer season begins.</p>
  <div class="ad-banner inline-ad"><span class="ad-label">Advertisement</span><iframe src="https://ads.adnetwork.example.net/serve?slot=mpu&amp;site=ht" width="300" height="250" title="Advertisement"></iframe></div>
  <p class="tags">Topics: <a href="/topics/islands">Islands</a>, <a href="/topics/transport">Transport</a>, <a href="/topics/weather">Weather</a></p>
</article>
<aside class="related">
  <h3>Related articles</h3>
  <ul>
    <li><a href="/news/2024/01/storm-isha-damage">Storm Isha leaves trail of damage along the west coast</a></li>
    <li><a href="/news/2024/01/air-service-extra-flights">Island air service adds extra flights during ferry closure</a></li>
    <li><a href="/news/2023/11/harbour-funding">Harbour upgrade funding approved by county council</a></li>
    <li><a href="/news/2023/09/summer-visitor-numbers">Record summer for visitor numbers on the Aran Islands</a></li>
  </ul>
</aside>
<section class="comments" id="comments">
  <h3>Comments (3)</h3>
  <div class="comment"><span class="user">seanog_77</span> <span class="date">20 Feb 2024</span><p>About time. My mother has been waiting on a hospital appointment since the first week of the closure.</p></div>
  <div class="comment"><span class="user">GalwayBayWatcher</span> <span class="date">20 Feb 2024</span><p>Fair play to the crews who worked through that weather.</p></div>
  <div class="comment"><span class="user">k.walsh</span> <span class="date">21 Feb 2024</span><p>The storm defences review should have happened years ago.</p></div>
  <form class="comment-form"><textarea placeholder="Join the discussion"></textarea><button>Post comment</button></form>
</section>
</main>
<footer class="site-footer">
  <div class="footer-cols">
    <ul><li><a href="/about">About us</a></li><li><a href="/contact">Contact the newsroom</a></li><li><a href="/advertise">Advertise with us</a></li><li><a href="/careers">Careers</a></li></ul>
    <ul><li><a href="/privacy">Privacy policy</a></li><li><a href="/cookies">Cookie policy</a></li><li><a href="/terms">Terms and conditions</a></li><li><a href="/complaints">Complaints and corrections</a></li></ul>
    <ul><li><a href="/rss">RSS feeds</a></li><li><a href="/archive">Archive</a></li><li><a href="/sitemap">Sitemap</a></li><li><a href="/apps">Download our app</a></li></ul>
  </div>
  <p class="copyright">&copy; 2024 The Harbour Times Media Group Ltd. All rights reserved. Registered in Ireland No. 123456.</p>
</footer>
<script src="/static/js/site.4f2a9c.js" defer></script>
<script>document.getElementById('cookie-consent').querySelector('.accept').addEventListener('click', function () { document.cookie = 'consent=1; max-age=31536000'; });</script>
</body>
</html>
"""

FORUM_HTML = """<!DOCTYPE html>
<html dir="ltr" lang="en-gb">
<head>
<meta charset="utf-8">
<title>Sourdough starter smells like nail polish remover - normal? - Bread &amp; Baking - The Crumb Forum</title>
<link href="./styles/prosilver/theme/stylesheet.css?assets_version=112" rel="stylesheet">
</head>
<body id="phpbb" class="section-viewtopic ltr">
<div id="wrap" class="wrap">
<div class="headerbar" role="banner">
  <a href="./index.php" title="Board index" id="logo"><span class="site_logo"></span></a>
  <h1>The Crumb Forum</h1><p>Home bakers helping home bakers since 2006</p>
  <div class="search-header"><form action="./search.php"><input name="keywords" type="search" placeholder="Search&hellip;"><button>Search</button></form></div>
</div>
<div class="navbar" role="navigation">
  <ul class="nav-main">
    <li><a href="/faq.php">FAQ</a></li>
    <li><a href="/memberlist.php">Members</a></li>
    <li><a href="/ucp.php?mode=register">Register</a></li>
    <li><a href="/ucp.php?mode=login">Login</a></li>
  </ul>
  <ul class="nav-breadcrumbs"><li><a href="./index.php">Board index</a> &lsaquo; <a href="./viewforum.php?f=3">Bread &amp; Baking</a> &lsaquo; <a href="./viewforum.php?f=7">Sourdough</a></li></ul>
</div>
<div id="page-body" class="page-body" role="main">
<h2 class="topic-title"><a href="./viewtopic.php?t=48213">Sourdough starter smells like nail polish remover - normal?</a></h2>
<div class="action-bar bar-top"><a href="./posting.php?mode=reply&amp;t=48213" class="button">Post Reply</a> <div class="pagination">4 posts &bull; Page <strong>1</strong> of <strong>1</strong></div></div>

<div id="p301877" class="post has-profile bg2">
  <dl class="postprofile"><dt><a href="./memberlist.php?u=9921" class="username">crustfund</a></dt><dd class="profile-rank">New member</dd><dd><strong>Posts:</strong> 12</dd><dd><strong>Joined:</strong> Sat Oct 14, 2023</dd></dl>
  <div class="postbody">
    <h3><a href="#p301877">Sourdough starter smells like nail polish remover - normal?</a></h3>
    <p class="author">by <strong>crustfund</strong> &raquo; Tue Feb 13, 2024 9:41 pm</p>
    <div class="content">My starter is about ten days old and lives on the kitchen counter. For the last two days it has smelled sharply of acetone, almost exactly like nail polish remover.<br><br>I feed it once a day with equal weights of flour and water. It doubles in about six hours but then collapses. Is it ruined, or is this a phase that every starter goes through?</div>
    <div class="signature">Currently baking: my first rye. Wish me luck.</div>
  </div>
</div>

<div id="p301880" class="post has-profile bg1">
  <dl class="postprofile"><dt><a href="./memberlist.php?u=212" class="username">MillerOfDee</a></dt><dd class="profile-rank">Moderator</dd><dd><strong>Posts:</strong> 8734</dd><dd><strong>Joined:</strong> Mon Mar 06, 2006</dd></dl>
  <div class="postbody">
    <h3><a href="#p301880">Re: Sourdough starter smells like nail polish remover - normal?</a></h3>
    <p class="author">by <strong>MillerOfDee</strong> &raquo; Tue Feb 13, 2024 10:02 pm</p>
    <div class="content">Perfectly normal, and nothing is ruined. The acetone smell means the yeast and bacteria have eaten through their food and are hungry.<br><br>A starter that doubles in six hours at room temperature is a strong one. Feed it twice a day, or use a larger proportion of fresh flour at each feeding, and the smell should be gone within three or four days.</div>
    <div class="signature">&quot;The best bread is the one you actually bake.&quot; &ndash; forum rules and FAQ: <a href="/faq.php">read before posting</a></div>
  </div>
</div>

<div id="p301902" class="post has-profile bg2">
  <dl class="postprofile"><dt><a href="./memberlist.php?u=5530" class="username">hydration_hannah</a></dt><dd class="profile-rank">Regular</dd><dd><strong>Posts:</strong> 1402</dd><dd><strong>Joined:</strong> Thu Jun 18, 2015</dd></dl>
  <div class="postbody">
    <h3><a href="#p301902">Re: Sourdough starter smells like nail polish remover - normal?</a></h3>
    <p class="author">by <strong>hydration_hannah</strong> &raquo; Wed Feb 14, 2024 7:15 am</p>
    <div class="content"><blockquote><cite>MillerOfDee wrote:</cite>Feed it twice a day, or use a larger proportion of fresh flour at each feeding</blockquote>Agree with this. I keep only 20 grams of old starter and add 100 grams each of flour and water, which gives it enough food to last a whole day in a warm kitchen.<br><br>A spoonful of wholemeal rye in the feed also seems to calm the smell down.</div>
    <div class="signature">Hannah &ndash; 78% hydration or bust</div>
  </div>
</div>

<div id="p301955" class="post has-profile bg1">
  <dl class="postprofile"><dt><a href="./memberlist.php?u=9921" class="username">crustfund</a></dt><dd class="profile-rank">New member</dd><dd><strong>Posts:</strong> 13</dd><dd><strong>Joined:</strong> Sat Oct 14, 2023</dd></dl>
  <div class="postbody">
    <h3><a href="#p301955">Re: Sourdough starter smells like nail polish remover - normal?</a></h3>
    <p class="author">by <strong>crustfund</strong> &raquo; Fri Feb 16, 2024 6:30 pm</p>
    <div class="content">Update for anyone who finds this thread later: two feeds a day with the smaller amount of old starter fixed it completely. It now smells like yoghurt and the first loaf had a lovely open crumb.</div>
    <div class="signature">Currently baking: my first rye. Wish me luck.</div>
  </div>
</div>

<div class="action-bar bar-bottom"><a href="./posting.php?mode=reply&amp;t=48213" class="button">Post Reply</a> <a href="./viewforum.php?f=7" class="jump">Return to &ldquo;Sourdough&rdquo;</a></div>
<div class="stat-block online-list"><h3>Who is online</h3><p>Users browsing this forum: No registered users and 14 guests</p></div>
</div>
<div class="page-footer" role="contentinfo">
  <div class="navbar"><ul><li><a href="./index.php">Board index</a></li><li><a href="/ucp.php?mode=delete_cookies">Delete cookies</a></li><li>All times are <span title="UTC">UTC</span></li></ul></div>
  <div class="copyright">Powered by <a href="https://www.phpbb.com/">phpBB</a>&reg; Forum Software &copy; phpBB Limited<br><a href="/ucp.php?mode=privacy">Privacy</a> | <a href="/ucp.php?mode=terms">Terms</a></div>
</div>
</div>
</body>
</html>
"""

PRODUCT_HTML = """<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="UTF-8">
<title>Ridgeline 45L Trekking Backpack &ndash; Forest Green | Summit Outfitters</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<script type="application/ld+json">{"@context":"https://schema.org/","@type":"Product","name":"Ridgeline 45L Trekking Backpack","offers":{"@type":"Offer","priceCurrency":"USD","price":"149.00"}}</script>
<link rel="stylesheet" href="/cdn/shop/t/12/assets/theme.css">
</head>
<body class="template-product">
<div class="announcement-bar">Free shipping on orders over $75 &middot; 60-day returns</div>
<header class="shop-header">
  <a href="/" class="shop-logo">Summit Outfitters</a>
  <nav class="mega-menu">
    <ul>
      <li><a href="/collections/backpacks">Backpacks</a><ul><li><a href="/collections/daypacks">Daypacks</a></li><li><a href="/collections/trekking-packs">Trekking packs</a></li><li><a href="/collections/travel-packs">Travel packs</a></li></ul></li>
      <li><a href="/collections/tents">Tents &amp; Shelters</a></li>
      <li><a href="/collections/sleeping">Sleeping Bags</a></li>
      <li><a href="/collections/footwear">Footwear</a></li>
      <li><a href="/collections/clothing">Clothing</a></li>
      <li><a href="/collections/sale">Sale</a></li>
    </ul>
  </nav>
  <div class="header-icons"><a href="/search">Search</a> <a href="/account">My account</a> <a href="/cart">Cart (0)</a></div>
</header>
<nav class="breadcrumbs"><a href="/">Home</a> / <a href="/collections/backpacks">Backpacks</a> / <a href="/collections/trekking-packs">Trekking packs</a></nav>
<main>
<div class="product" itemscope>
  <div class="product-gallery"><img src="/cdn/shop/products/ridgeline45-green-front.jpg" alt="Ridgeline 45L, front view"><img src="/cdn/shop/products/ridgeline45-green-back.jpg" alt="Back panel"></div>
  <div class="product-info">
    <h1 class="product-title">Ridgeline 45L Trekking Backpack</h1>
    <p class="product-price"><span class="money">$149.00</span> <s class="compare-at">$179.00</s></p>
    <form action="/cart/add" class="product-form"><label>Colour <select name="colour"><option>Forest Green</option><option>Slate Grey</option><option>Ember Orange</option></select></label><label>Torso <select name="size"><option>S/M</option><option>M/L</option></select></label><button type="submit">Add to cart</button></form>
    <div class="product-description">
      <p>The Ridgeline 45L is built for multi-day hikes where every gram counts but comfort still matters. Its ventilated back panel keeps a gap of air between your back and the load, so you arrive at the hut less soaked in sweat.</p>
      <p>The main compartment opens from the top and through a full-length side zip, which means you can reach the sleeping bag at the bottom without unpacking everything else.</p>
      <p>An adjustable torso length lets you fit the pack to your own back in under a minute, and the hip belt carries most of the weight on loads up to 18 kilograms.</p>
    </div>
    <h2>Specifications</h2>
    <table class="specs">
      <tr><th>Volume</th><td>45 litres</td></tr>
      <tr><th>Weight</th><td>1.38 kg</td></tr>
      <tr><th>Back length</th><td>43&ndash;53 cm, adjustable</td></tr>
      <tr><th>Fabric</th><td>210D recycled ripstop nylon, PFC-free water repellent</td></tr>
      <tr><th>Rain cover</th><td>Included, stowed in the base</td></tr>
    </table>
  </div>
</div>
<section class="reviews" id="reviews">
  <h2>Customer reviews</h2>
  <p class="summary">4.6 out of 5 stars, based on 38 reviews</p>
  <div class="review"><p class="stars">&#9733;&#9733;&#9733;&#9733;&#9733;</p><h3>Carried it across the Pyrenees</h3><p>Three weeks on the trail and not a single pressure point on my hips. The side zip is a game changer.</p><p class="reviewer">Luc D., verified buyer</p></div>
  <div class="review"><p class="stars">&#9733;&#9733;&#9733;&#9733;&#9734;</p><h3>Great pack, small hip pockets</h3><p>Comfortable and well made. The hip belt pockets are too small for a modern phone, though.</p><p class="reviewer">Priya S., verified buyer</p></div>
</section>
<section class="recommendations"><h2>You may also like</h2><ul><li><a href="/products/ridgeline-30">Ridgeline 30L Daypack &ndash; $119.00</a></li><li><a href="/products/trail-poles">Carbon Trekking Poles &ndash; $89.00</a></li><li><a href="/products/dry-bags">Ultralight Dry Bag Set &ndash; $34.00</a></li></ul></section>
</main>
<footer class="shop-footer">
  <div class="newsletter"><h4>Join the Summit Club</h4><p>Sign up for 10% off your first order and early access to sales.</p><form><input type="email" placeholder="Email address"><button>Sign up</button></form></div>
  <div class="footer-menus">
    <ul><li><a href="/pages/help">Customer service</a></li><li><a href="/pages/shipping">Shipping &amp; delivery</a></li><li><a href="/pages/returns">Returns &amp; exchanges</a></li><li><a href="/pages/track">Track your order</a></li></ul>
    <ul><li><a href="/pages/about">Our story</a></li><li><a href="/pages/stores">Find a store</a></li><li><a href="/pages/repairs">Repair service</a></li><li><a href="/pages/careers">Careers</a></li></ul>
  </div>
  <p class="legal">&copy; 2024 Summit Outfitters Inc. Prices in USD. <a href="/policies/privacy-policy">Privacy</a> &middot; <a href="/policies/terms-of-service">Terms of service</a></p>
</footer>
<script src="/cdn/shop/t/12/assets/theme.js" defer></script>
</body>
</html>
"""

# One line, no newline anywhere: built from parts joined with nothing.
ONE_LINE_PARTS = [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
    "<title>What I learned from profiling our static site generator &middot; notes from the build farm</title>",
    '<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/assets/main.css">',
    "<style>body{font-family:Georgia,serif;max-width:42em;margin:auto}nav a{margin-right:1em}</style>",
    '<script>var _paq=window._paq=window._paq||[];_paq.push(["trackPageView"]);_paq.push(["enableLinkTracking"]);</script>',
    "</head><body>",
    '<header><a class="site-title" href="/">notes from the build farm</a><nav><a href="/">Posts</a><a href="/tags/">Browse by tag</a><a href="/about/">About this blog</a><a href="/feed.xml">Atom feed</a></nav></header>',
    "<main><article>",
    "<h1>What I learned from profiling our static site generator</h1>",
    '<p class="meta">Posted on <time datetime="2024-01-28">28 January 2024</time> by Tomasz Wr\u00f3bel &middot; 6 min read</p>',
    "<p>Our documentation site had grown to about eleven thousand pages, and a full rebuild had crept up from forty seconds to almost six minutes. Nobody had changed the generator itself, so I assumed the problem was the content.</p>",
    "<p>I was wrong. The first flame graph showed that more than half of the time went into a single function that resolved relative links, and it was called once for every link on every page.</p>",
    "<h2>The quadratic link check</h2>",
    "<p>For each link, the function walked the full list of pages to see whether the target existed. With eleven thousand pages and an average of eighty links per page, that is close to a billion string comparisons per build.</p>",
    "<p>Replacing the list with a hash set of page paths took the link check from three and a half minutes to under two seconds. The change was four lines long.</p>",
    "<pre><code>known = set(p.path for p in pages)  # built once per build</code></pre>",
    "<h2>Templates were the next bottleneck</h2>",
    "<p>With links out of the way, template rendering became the largest block. Every page re-parsed the same base layout from disk because the template cache was keyed on the absolute path, and our build tool copied the theme into a fresh temporary folder for each worker.</p>",
    "<p>Keying the cache on the file&#8217;s content hash instead of its path brought a full rebuild down to fifty-one seconds, faster than it had been a year ago.</p>",
    "<p>The lesson I keep relearning is simple: measure before you guess, because the slow part is rarely where you expect it to be.</p>",
    "</article>",
    '<section class="post-nav"><a rel="prev" href="/2024/01/flaky-tests/">&larr; Previous post: Taming flaky integration tests</a> <a rel="next" href="/2024/02/ci-cache/">Next post: A CI cache that actually hits &rarr;</a></section>',
    "</main>",
    '<footer><p>Written by Tomasz Wr\u00f3bel. Content licensed under CC BY 4.0 unless noted otherwise.</p><p>Built with a static site generator that is now fast again.</p></footer>',
    "</body></html>",
]

# windows-1252, German. Declared only in the HTTP header.
CP1252_HTML = """<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" lang="de" xml:lang="de">
<head>
<title>Wochenmarkt Münsterplatz: Neue Öffnungszeiten ab März – Stadtanzeiger Freiburg</title>
<link rel="stylesheet" type="text/css" href="/css/anzeiger.css" />
<script type="text/javascript" src="/js/jquery-1.4.2.min.js"></script>
</head>
<body>
<div id="container">
<div id="kopf"><a href="/"><img src="/img/stadtanzeiger.gif" alt="Stadtanzeiger" /></a>
<div id="suche"><form action="/suche/"><input type="text" name="q" value="Suchbegriff" /> <input type="submit" value="Suchen" /></form></div>
</div>
<div id="navigation">
<ul>
<li><a href="/">Startseite</a></li>
<li><a href="/lokales/">Lokales</a></li>
<li><a href="/wirtschaft/">Wirtschaft</a></li>
<li><a href="/kultur/">Kultur &amp; Freizeit</a></li>
<li><a href="/sport/">Sport</a></li>
<li><a href="/kleinanzeigen/">Kleinanzeigen aufgeben</a></li>
<li><a href="/archiv/">Archiv durchsuchen</a></li>
</ul>
<p class="abo"><a href="/abo/">Jetzt abonnieren – nur 9,90 € im Monat</a></p>
</div>
<div id="inhalt">
<p class="rubrik">Lokales</p>
<h1>Wochenmarkt auf dem Münsterplatz: Neue Öffnungszeiten ab März</h1>
<p class="datum">Freiburg, 19.02.2024 – von Jürgen Häußler</p>
<p>Der Wochenmarkt auf dem Münsterplatz öffnet ab dem 4. März bereits um 7 Uhr statt wie bisher um 7.30 Uhr. Das hat der Gemeinderat in seiner Sitzung am Dienstag beschlossen.</p>
<p>„Viele Berufstätige wollen vor der Arbeit einkaufen“, sagte Marktmeisterin Renée Kößler. „Eine halbe Stunde mehr am Morgen macht für sie einen großen Unterschied.“</p>
<p>Die Händler hatten die Änderung seit Längerem gefordert. Ein Stand mit Brot, Käse oder Gemüse zahlt künftig 2,40 € pro laufendem Meter und Markttag – zehn Cent mehr als bisher.</p>
<p>Am Samstag bleibt alles beim Alten: Dort endet der Markt weiterhin um 13.30 Uhr. Für die Zeit der Bauarbeiten am Nordportal werden einige Stände vorübergehend an die Südseite des Platzes verlegt.</p>
<p>Über die neuen Zeiten informiert die Stadt auch mit Aushängen in der Markthalle und im Rathaus.</p>
<p class="autor">Jürgen Häußler</p>
<div class="weitere"><h3>Mehr aus Lokales</h3><ul><li><a href="/lokales/2024/02/radweg-dreisam.html">Radweg an der Dreisam wird ab April saniert</a></li><li><a href="/lokales/2024/02/fasnet-bilanz.html">Fasnet-Bilanz: Ruhiger Umzug trotz Regen</a></li></ul></div>
</div>
<div id="fuss">© 2024 Stadtanzeiger Verlag GmbH – <a href="/impressum.html">Impressum</a> | <a href="/datenschutz.html">Datenschutzerklärung</a> | <a href="/mediadaten.html">Mediadaten</a></div>
</div>
</body>
</html>
"""

# Shift_JIS, Japanese. Declared only by <meta charset>; the HTTP header has no charset.
SJIS_HTML = """<!DOCTYPE html>
<html lang="ja">
<head>
<meta charset="Shift_JIS">
<title>春の京都で見つけた小さな和菓子屋 | 旅と暮らしのブログ</title>
<link rel="stylesheet" href="/css/style.css">
</head>
<body>
<div id="header">
<p class="site-name"><a href="/">旅と暮らしのブログ</a></p>
<ul class="gnav">
<li><a href="/">ホーム</a></li>
<li><a href="/category/travel/">旅行記</a></li>
<li><a href="/category/food/">食べ歩き</a></li>
<li><a href="/profile/">プロフィール</a></li>
<li><a href="/contact/">お問い合わせ</a></li>
</ul>
</div>
<div id="main">
<div class="entry">
<h1>春の京都で見つけた小さな和菓子屋</h1>
<p class="date">2024年3月2日</p>
<p>三月の初め、京都の北の方にある静かな住宅街を歩いていると、小さな和菓子屋を見つけました。</p>
<p>店の中には、桜の形をした上生菓子がきれいに並んでいました。店主のおばあさんによると、このお店は五十年以上前から続いているそうです。</p>
<p>私は桜餅と草餅を一つずつ買い、近くの川沿いのベンチで食べました。桜餅はほんのりと塩味がきいていて、とてもおいしかったです。</p>
<p>観光地から少し離れた場所にも、すてきなお店がたくさんあります。次に京都へ行くときも、知らない道を歩いてみたいと思います。</p>
</div>
<div class="related">
<p>関連記事</p>
<ul>
<li><a href="/2023/11/nara/">秋の奈良で鹿と散歩</a></li>
<li><a href="/2023/08/osaka/">大阪の下町グルメ巡り</a></li>
</ul>
</div>
</div>
<div id="footer">
<p>このブログの文章と写真の無断転載を禁止します。</p>
<p>Copyright (C) 2024 旅と暮らしのブログ All Rights Reserved.</p>
</div>
</body>
</html>
"""

UTF8_MIX_HTML = """<!DOCTYPE html>
<html lang="de">
<head>
<meta charset="utf-8">
<title>Europäisch-chinesische Kulturwoche 2024 – Programm | Kulturforum Basel</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="alternate" hreflang="fr" href="https://www.kulturforum-basel.example.ch/fr/semaine-culturelle-2024">
<link rel="alternate" hreflang="zh" href="https://www.kulturforum-basel.example.ch/zh/wenhuazhou-2024">
</head>
<body>
<header>
<nav class="lang-switch"><a href="/de/">Deutsch</a> · <a href="/fr/">Français</a> · <a href="/zh/">中文</a></nav>
<nav class="menu"><a href="/de/">Startseite</a> <a href="/de/veranstaltungen/">Veranstaltungskalender</a> <a href="/de/verein/">Über den Verein</a> <a href="/de/mitglied-werden/">Mitglied werden</a> <a href="/de/spenden/">Jetzt spenden</a></nav>
</header>
<main>
<article>
<h1>Europäisch-chinesische Kulturwoche 2024</h1>
<p class="lead">Vom 12. bis 18. Mai lädt das Kulturforum Basel zu einer Woche voller Musik, Literatur und Küche aus Europa und China ein.</p>
<p>Zur Eröffnung spielt das Ensemble „Seidenstraße“ Werke für Guqin und Streichquartett. Der Eintritt ist für Schülerinnen und Schüler frei; für alle anderen kostet die Karte 25 Franken.</p>
<p>Am Mittwoch liest die Übersetzerin Zhou Lan aus ihrer neuen Übertragung klassischer Tang-Gedichte ins Deutsche und spricht über die Grenzen der Übersetzbarkeit.</p>
<h2>Le programme en français</h2>
<p>La semaine s’ouvre le dimanche 12 mai à 18 h avec un concert réunissant guqin et quatuor à cordes. Les ateliers de calligraphie du jeudi sont ouverts aux débutants, mais l’inscription préalable est obligatoire.</p>
<p>Le vendredi soir, des cuisiniers de Chengdu et de Lyon préparent ensemble un dîner à six plats, servi dans la cour intérieure du musée.</p>
<h2>中文简介</h2>
<p>二〇二四年欧中文化周将于五月十二日至十八日在巴塞尔举行。活动包括音乐会、诗歌朗诵、书法工作坊和美食晚宴。</p>
<p>周四的书法工作坊欢迎初学者参加，但需要提前报名。所有活动均提供德语和中文讲解。</p>
</article>
</main>
<footer>
<p>Kulturforum Basel · Rheingasse 17 · 4058 Basel · <a href="/de/impressum/">Impressum</a> · <a href="/de/datenschutz/">Datenschutz</a></p>
<p>© 2024 Verein Kulturforum Basel. Gefördert vom Kanton Basel-Stadt.</p>
</footer>
</body>
</html>
"""

# UTF-8 bytes, but the HTTP header claims iso-8859-1 and there is no <meta>.
WRONG_CHARSET_HTML = """<!DOCTYPE html>
<html lang="fr">
<head>
<title>Recette : la vraie tarte Tatin de Sologne | Cuisine de grand-mère</title>
</head>
<body>
<div class="entete"><a href="/">Cuisine de grand-mère</a>
<ul class="menu"><li><a href="/entrees/">Entrées</a></li><li><a href="/plats/">Plats mijotés</a></li><li><a href="/desserts/">Desserts et pâtisseries</a></li><li><a href="/contact/">Écrivez-nous</a></li></ul>
</div>
<div class="contenu">
<h1>La vraie tarte Tatin de Sologne</h1>
<p>La tarte Tatin est née, dit-on, d’une erreur : l’une des sœurs Tatin aurait oublié de garnir le moule de pâte avant d’y mettre les pommes.</p>
<p>Choisissez des pommes qui se tiennent à la cuisson, comme la reine des reinettes ou la boskoop. Comptez environ un kilo et demi de fruits pour un moule de vingt-quatre centimètres.</p>
<p>Faites fondre cent grammes de beurre avec cent cinquante grammes de sucre jusqu’à obtenir un caramel blond, puis rangez les quartiers de pommes bien serrés, côté bombé vers le bas.</p>
<p>Après une heure au four, laissez tiédir dix minutes avant de démouler d’un geste franc. Servez-la tiède, avec une cuillerée de crème fraîche épaisse.</p>
</div>
<div class="pied">Tous droits réservés © 2024 Cuisine de grand-mère — <a href="/mentions-legales/">Mentions légales</a></div>
</body>
</html>
"""

CHUNKED_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Library opening hours extended this spring - Westfield Borough Council</title>
<link rel="stylesheet" href="/assets/gov.css">
</head>
<body>
<a class="skip-link" href="#main-content">Skip to main content</a>
<header class="council-header">
<a href="/" class="council-logo">Westfield Borough Council</a>
<nav><ul><li><a href="/bins">Bins and recycling</a></li><li><a href="/council-tax">Council Tax</a></li><li><a href="/parking">Parking permits</a></li><li><a href="/planning">Planning applications</a></li><li><a href="/libraries">Libraries</a></li><li><a href="/report">Report a problem</a></li></ul></nav>
</header>
<div class="breadcrumbs"><a href="/">Home</a> &gt; <a href="/news">News</a> &gt; Library opening hours</div>
<main id="main-content">
<h1>Library opening hours extended this spring</h1>
<p class="published">Published: 12 February 2024</p>
<p>From 1 March, the central library on Market Street will stay open until 8pm on weekdays, two hours later than at present. The change follows a consultation in which more than 1,400 residents took part.</p>
<p>Three branch libraries, in Eastgate, Hollin Park and Saxby, will also open on Sunday afternoons between 1pm and 5pm for a trial period of six months.</p>
<p>Councillor Aisha Okafor, cabinet member for culture, said the longer hours would help students and people who work during the day. &ldquo;Libraries are one of the few warm, quiet and free places left in our town centres,&rdquo; she said.</p>
<p>The extended hours will be paid for from the council&rsquo;s community fund and will not affect the budget for new books, which rises by 4% this year. The caf\u00e9 on the ground floor of the central library will keep its current hours.</p>
<p>Residents can give feedback on the trial at any library desk or by completing the online survey, which closes on 31 August.</p>
<h2>Related services</h2>
<ul><li><a href="/libraries/join">Join the library</a></li><li><a href="/libraries/ebooks">Borrow eBooks and audiobooks</a></li><li><a href="/libraries/rooms">Book a study room</a></li></ul>
</main>
<footer class="council-footer">
<ul><li><a href="/accessibility">Accessibility statement</a></li><li><a href="/privacy">Privacy notice</a></li><li><a href="/cookies">Cookies</a></li><li><a href="/contact">Contact us</a></li></ul>
<p>&copy; Westfield Borough Council 2024. Town Hall, Market Street, Westfield WF1 2AB.</p>
</footer>
</body>
</html>
"""

GZIP_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Why are there two high tides a day? | Everyday Science Explained</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="preload" href="/fonts/inter.woff2" as="font" crossorigin>
</head>
<body>
<div class="promo-strip">New: the Everyday Science podcast. <a href="/podcast">Listen to episode one</a></div>
<header><a href="/" class="brand">Everyday Science Explained</a>
<nav><a href="/physics">Physics</a> <a href="/earth">Earth &amp; Space</a> <a href="/biology">Biology</a> <a href="/chemistry">Chemistry</a> <a href="/ask">Ask a question</a></nav></header>
<main>
<article>
<h1>Why are there two high tides a day?</h1>
<p class="standfirst">The Moon pulls on the ocean from one side of the Earth, so why does the water bulge on the opposite side too?</p>
<p>Most coasts see two high tides and two low tides roughly every 24 hours and 50 minutes. The extra 50 minutes appear because the Moon moves along its orbit while the Earth turns, so each day the Earth has to rotate a little further to face the Moon again.</p>
<p>The Moon&rsquo;s gravity is strongest on the side of the Earth that faces it and weakest on the far side. What raises the tides is not the pull itself but this difference in pull across the width of the planet.</p>
<p>On the near side, the water is pulled towards the Moon slightly more than the solid Earth is, so it heaps up into a bulge. On the far side, the solid Earth is pulled towards the Moon more than the water there, which is left behind as a second bulge.</p>
<p>As the Earth rotates beneath these two bulges, any given stretch of coast passes through both of them, and that is why it sees two high tides a day.</p>
<h2>What about the Sun?</h2>
<p>The Sun raises tides in the same way, but they are less than half as strong as the Moon&rsquo;s. When the Sun and Moon line up, at new and full moon, their effects add together to give the large spring tides; at half moon they partly cancel out and give the weaker neap tides.</p>
</article>
<aside class="newsletter-signup"><h2>Get one explainer a week</h2><p>Join 40,000 curious readers. No spam, unsubscribe at any time.</p><form><input type="email" placeholder="you@example.com"><button>Subscribe</button></form></aside>
<aside class="popular"><h2>Most read this week</h2><ol><li><a href="/physics/why-is-the-sky-blue">Why is the sky blue?</a></li><li><a href="/earth/how-do-volcanoes-form">How do volcanoes form?</a></li><li><a href="/biology/why-do-we-yawn">Why do we yawn?</a></li></ol></aside>
</main>
<footer><p>Everyday Science Explained is an independent publication. &copy; 2024 ESE Publishing.</p><p><a href="/about">About</a> &middot; <a href="/privacy">Privacy</a> &middot; <a href="/contact">Contact</a></p></footer>
</body>
</html>
"""

WIKI_HTML = """<!DOCTYPE html>
<html class="client-nojs" lang="en" dir="ltr">
<head>
<meta charset="UTF-8">
<title>Fastnet Rock - OpenIsles Wiki</title>
<link rel="stylesheet" href="/w/load.php?lang=en&amp;modules=site.styles&amp;only=styles&amp;skin=vector">
<script>document.documentElement.className="client-js";RLCONF={"wgPageName":"Fastnet_Rock","wgTitle":"Fastnet Rock","wgNamespaceNumber":0};</script>
</head>
<body class="mediawiki ltr skin-vector page-Fastnet_Rock">
<a class="mw-jump-link" href="#bodyContent">Jump to content</a>
<div id="mw-page-base"></div>
<div id="content" class="mw-body" role="main">
<h1 id="firstHeading" class="firstHeading">Fastnet Rock</h1>
<div id="bodyContent" class="vector-body">
<div id="siteSub">From OpenIsles Wiki, the free encyclopedia of islands</div>
<div id="mw-content-text" class="mw-body-content">
<table class="infobox"><tr><th colspan="2">Fastnet Rock</th></tr><tr><th>Location</th><td><a href="/wiki/Celtic_Sea">Celtic Sea</a></td></tr><tr><th>Area</th><td>0.3 ha</td></tr><tr><th>Highest point</th><td>30 m</td></tr><tr><th>Lighthouse</th><td><a href="/wiki/Fastnet_Lighthouse">Fastnet Lighthouse</a> (1904)</td></tr></table>
<p><b>Fastnet Rock</b> is a small clay-slate islet in the <a href="/wiki/Atlantic_Ocean">Atlantic Ocean</a> and the most southerly point of <a href="/wiki/Ireland">Ireland</a>. It lies about 6.5 kilometres south-west of <a href="/wiki/Cape_Clear_Island">Cape Clear Island</a> in <a href="/wiki/County_Cork">County Cork</a>.</p>
<p>The rock was known as the <i>Teardrop of Ireland</i> because it was the last part of the country that many <a href="/wiki/Emigration">emigrants</a> to <a href="/wiki/North_America">North America</a> saw from their ships.</p>
<div id="toc" class="toc"><div class="toctitle"><h2>Contents</h2></div><ul><li><a href="#Lighthouse">1 Lighthouse</a></li><li><a href="#Yacht_race">2 Yacht race</a></li><li><a href="#References">3 References</a></li></ul></div>
<h2><span class="mw-headline" id="Lighthouse">Lighthouse</span><span class="mw-editsection">[<a href="/w/index.php?title=Fastnet_Rock&amp;action=edit&amp;section=1">edit</a>]</span></h2>
<p>The first <a href="/wiki/Lighthouse">lighthouse</a> on the rock was a <a href="/wiki/Cast_iron">cast-iron</a> tower completed in 1854. Its <a href="/wiki/Lantern">lantern</a> was too weak to be seen reliably in <a href="/wiki/Fog">fog</a>, and the tower itself began to shake in heavy <a href="/wiki/Wind_wave">seas</a>.</p>
<p>The present <a href="/wiki/Granite">granite</a> tower was designed by <a href="/wiki/William_Douglass">William Douglass</a> and built between 1897 and 1904. Each of its 2,074 dovetailed blocks was cut and fitted together on the <a href="/wiki/Mainland">mainland</a> at <a href="/wiki/Rock_Island,_County_Cork">Rock Island</a> before being shipped out to the rock.<sup class="reference"><a href="#cite_note-1">[1]</a></sup></p>
<p>The light was <a href="/wiki/Lighthouse_automation">automated</a> in 1989, and the last keepers left the rock in the same year.</p>
<h2><span class="mw-headline" id="Yacht_race">Yacht race</span><span class="mw-editsection">[<a href="/w/index.php?title=Fastnet_Rock&amp;action=edit&amp;section=2">edit</a>]</span></h2>
<p>The rock gives its name to the <a href="/wiki/Fastnet_Race">Fastnet Race</a>, an <a href="/wiki/Offshore_sailing">offshore</a> <a href="/wiki/Yacht_racing">yacht race</a> held every two years, in which boats sail from the <a href="/wiki/Isle_of_Wight">Isle of Wight</a> around the rock and back to <a href="/wiki/Cherbourg">Cherbourg</a>.<sup class="reference"><a href="#cite_note-2">[2]</a></sup></p>
<h2><span class="mw-headline" id="References">References</span></h2>
<ol class="references"><li id="cite_note-1"><a href="#cite_ref-1">^</a> <cite>Irish Lights: a history of the Commissioners, 1996, p. 142.</cite></li><li id="cite_note-2"><a href="#cite_ref-2">^</a> <cite>Royal Ocean Racing Club, race history pages.</cite></li></ol>
</div>
<div id="catlinks" class="catlinks"><a href="/wiki/Special:Categories">Categories</a>: <a href="/wiki/Category:Islands_of_County_Cork">Islands of County Cork</a> | <a href="/wiki/Category:Lighthouses_in_Ireland">Lighthouses in Ireland</a></div>
</div>
</div>
<div id="mw-navigation">
<div id="mw-head"><ul><li><a href="/w/index.php?title=Special:CreateAccount">Create account</a></li><li><a href="/w/index.php?title=Special:UserLogin">Log in</a></li></ul>
<ul><li class="selected"><a href="/wiki/Fastnet_Rock">Article</a></li><li><a href="/wiki/Talk:Fastnet_Rock">Talk</a></li><li><a href="/w/index.php?title=Fastnet_Rock&amp;action=edit">Edit</a></li><li><a href="/w/index.php?title=Fastnet_Rock&amp;action=history">View history</a></li></ul></div>
<div id="mw-panel"><ul><li><a href="/wiki/Main_Page">Main page</a></li><li><a href="/wiki/Special:Random">Random article</a></li><li><a href="/wiki/OpenIsles:Community_portal">Community portal</a></li><li><a href="/wiki/Special:RecentChanges">Recent changes</a></li><li><a href="/wiki/Special:WhatLinksHere/Fastnet_Rock">What links here</a></li></ul></div>
</div>
<div id="footer" role="contentinfo"><ul><li id="footer-info-lastmod">This page was last edited on 3 February 2024, at 11:52.</li><li id="footer-info-copyright">Text is available under the Creative Commons Attribution-ShareAlike License; additional terms may apply.</li></ul><ul><li><a href="/wiki/OpenIsles:Privacy">Privacy policy</a></li><li><a href="/wiki/OpenIsles:About">About OpenIsles Wiki</a></li><li><a href="/wiki/OpenIsles:Disclaimers">Disclaimers</a></li></ul></div>
</body>
</html>
"""

AUTHOR_HTML = """<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>Maria Lindqvist | The Harbour Times</title>
</head>
<body class="author-page">
<header class="site-header"><a class="logo" href="/">The Harbour Times</a>
<nav class="main-nav"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li><li><a href="/opinion">Opinion</a></li><li><a href="/weather">Weather and Tides</a></li></ul></nav></header>
<main>
<div class="author-bio">
<img src="/media/authors/maria-lindqvist.jpg" alt="Maria Lindqvist">
<h1>Maria Lindqvist</h1>
<p class="role">Islands Correspondent</p>
<p>Maria Lindqvist has covered the Aran Islands and the Connemara coast for The Harbour Times since 2017. Before joining the paper she reported on fisheries and maritime safety for a regional radio station in Gothenburg.</p>
<p>She lives on Inis Me\u00e1in and can usually be reached on the early ferry.</p>
</div>
<section class="author-latest"><h2>Latest from Maria Lindqvist</h2><ul><li><a href="/news/2024/02/ferry-service-restored">Ferry service to Inishmore restored after three-week storm closure</a></li><li><a href="/news/2024/01/school-bus">Island school gets its first electric minibus</a></li></ul></section>
</main>
<footer class="site-footer"><p class="copyright">&copy; 2024 The Harbour Times Media Group Ltd. All rights reserved. Registered in Ireland No. 123456.</p></footer>
</body>
</html>
"""

# Stored directly as a `resource` record (no HTTP headers), e.g. as a browser-based crawler does.
RESOURCE_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Installing Tidepool on Debian and Ubuntu - Tidepool 3.2 documentation</title>
<link rel="stylesheet" href="_static/pygments.css" type="text/css">
</head>
<body>
<div class="related" role="navigation" aria-label="related navigation"><h3>Navigation</h3><ul><li><a href="genindex.html" title="General Index">general index</a></li><li><a href="py-modindex.html">Python module index</a></li><li><a href="configuration.html" accesskey="N">next chapter</a></li><li><a href="index.html">Tidepool 3.2 documentation</a> &raquo;</li></ul></div>
<div class="document">
<div class="body" role="main">
<section id="installing-tidepool-on-debian-and-ubuntu">
<h1>Installing Tidepool on Debian and Ubuntu</h1>
<p>Tidepool is distributed as a Debian package for the two most recent stable releases of Debian and the current long-term support release of Ubuntu. The package installs a system service that starts automatically at boot.</p>
<p>Before you begin, make sure that your machine has at least two gigabytes of free memory and that port 8470 is not used by another program.</p>
<ol class="arabic simple"><li><p>Add the signing key and the package repository as described in the release notes.</p></li><li><p>Install the package with <code class="docutils literal notranslate"><span class="pre">apt-get install tidepool</span></code>.</p></li><li><p>Open the web interface on port 8470 and create the first administrator account.</p></li></ol>
<div class="admonition note"><p class="admonition-title">Note</p><p>If you upgrade from version 2.x, read the migration guide first, because the configuration file format changed in version 3.0.</p></div>
</section>
</div>
<div class="sphinxsidebar" role="navigation" aria-label="main navigation"><h3><a href="index.html">Table of Contents</a></h3><ul><li><a class="reference internal" href="#">Installing Tidepool on Debian and Ubuntu</a></li></ul><h4>Previous topic</h4><p><a href="quickstart.html">Quick start</a></p><div id="searchbox" role="search"><h3>Quick search</h3><form action="search.html"><input type="text" name="q"><input type="submit" value="Go"></form></div></div>
</div>
<div class="footer">&copy; Copyright 2019&ndash;2024, the Tidepool developers. Created using <a href="https://www.sphinx-doc.org/">Sphinx</a> 7.2.6.</div>
</body>
</html>
"""

# Long article; the crawler kept only the first TRUNCATE_AT bytes of the payload.
TRUNCATED_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>The long road to a quieter city: how Lyon tamed its traffic noise | Urban Futures Magazine</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/assets/uf.min.css">
</head>
<body>
<header class="uf-header"><a href="/" class="uf-logo">Urban Futures Magazine</a>
<nav><a href="/mobility">Mobility</a> <a href="/housing">Housing</a> <a href="/climate">Climate &amp; Cities</a> <a href="/data">City Data Desk</a> <a href="/events">Events</a> <a href="/membership">Become a member</a></nav></header>
<main>
<article class="longread">
<h1>The long road to a quieter city: how Lyon tamed its traffic noise</h1>
<p class="byline">By Helena Marsh &middot; 14 February 2024 &middot; 12 minute read</p>
<p>On a weekday morning ten years ago, the noise on the Cours Lafayette regularly passed 75 decibels, about as loud as a vacuum cleaner held at arm&rsquo;s length. Today a sound meter on the same corner rarely climbs above 64.</p>
<p>The change did not come from a single bold decision. It came from dozens of small ones, taken over a decade by officials who treated noise as a public health problem rather than a nuisance.</p>
<p>The first step was simply to measure. In 2014 the city installed a network of forty permanent sound sensors, and for the first time residents could see on a public map which streets were loudest at which hours.</p>
<p>The map changed the political conversation. Complaints that had been dismissed as the grumbling of a few light sleepers now came with data attached, and councillors found it hard to argue with a graph.</p>
<h2>Slower, smoother, quieter</h2>
<p>The cheapest and most effective measure turned out to be speed. Cutting the limit from 50 to 30 kilometres an hour on most residential streets lowered average noise levels by around three decibels, which the human ear perceives as a halving of traffic.</p>
<p>Quieter road surfaces came next. When streets were due for resurfacing anyway, the city switched to a porous asphalt that absorbs part of the sound of tyres on the road, at a small extra cost per square metre.</p>
<p>Buses were the third target. The city&rsquo;s transport authority replaced its oldest diesel buses with electric ones on the busiest central routes, and drivers were trained to accelerate gently away from stops.</p>
<h2>What residents noticed</h2>
<p>Surveys carried out every two years show a steady fall in the share of residents who say that traffic noise disturbs their sleep, from 31 per cent in 2014 to 19 per cent in the latest round.</p>
<p>Not everyone is convinced. Shopkeepers on some of the calmer streets say that fewer passing cars means fewer customers, although footfall counts collected by the city suggest otherwise.</p>
<p>Lyon&rsquo;s experience is now studied by planners from other cities, who are less interested in any one technique than in the patience with which the city combined them.</p>
<p>The final chapter of the plan, still under debate, would extend the low-noise zone to the ring road, where the sensor network records the highest night-time readings in the metropolitan area.</p>
</article>
<aside class="membership-box"><h2>Independent journalism needs you</h2><p>Become a member from &euro;5 a month and support in-depth reporting on the future of cities.</p></aside>
</main>
<footer><p>&copy; 2024 Urban Futures Magazine. All rights reserved.</p></footer>
</body>
</html>
"""
TRUNCATE_MARK = "shopkeepers on some of the calmer streets".capitalize()  # the cut falls inside this paragraph


# --------------------------------------------------------------------------- records

class Warc:
    def __init__(self):
        self.members = []  # gzip members, one per record
        self.rows = []     # (index, type, uri, note) for the README table
        self.counts = {}
        self.warcinfo_id = rid("warcinfo")

    def add(self, headers, block, note=""):
        """headers: list of (name, value) in order, Content-Length and digests filled here."""
        out = [b"WARC/1.0"]
        for name, value in headers:
            if value is None:
                continue
            out.append(f"{name}: {value}".encode("utf-8"))
        rec = CRLF.join(out) + CRLF + CRLF + block + CRLF + CRLF
        self.members.append(gz(rec))
        wtype = dict(headers)["WARC-Type"]
        self.counts[wtype] = self.counts.get(wtype, 0) + 1
        self.rows.append((len(self.rows), wtype, dict(headers).get("WARC-Target-URI", ""), note,
                          len(rec), dict(headers)["WARC-Record-ID"]))

    def bytes(self):
        return b"".join(self.members)


def warc_headers(wtype, record_id, date, length, content_type, uri=None, extra=()):
    h = [("WARC-Type", wtype), ("WARC-Date", date), ("WARC-Record-ID", record_id),
         ("Content-Length", str(length)), ("Content-Type", content_type)]
    if wtype != "warcinfo":
        h.append(("WARC-Warcinfo-ID", rid("warcinfo")))
    h.extend(extra)
    if uri is not None:
        h.append(("WARC-Target-URI", uri))
    return h


def request_block(uri, accept="text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"):
    from urllib.parse import urlsplit
    u = urlsplit(uri)
    path = u.path or "/"
    if u.query:
        path += "?" + u.query
    lines = [f"GET {path} HTTP/1.1", f"Host: {u.netloc}",
             "User-Agent: warcsift-sample/1.0 (synthetic record; https://example.com/warcsift)",
             f"Accept: {accept}", "Accept-Language: en-US,en;q=0.5", "Accept-Encoding: br,gzip",
             "Connection: Keep-Alive"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii")


def response_block(status_line, headers, body):
    head = status_line + "\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
    return head.encode("latin-1"), body


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description="Write sample.warc.gz and expected.json.")
    ap.add_argument("--out", type=pathlib.Path, default=HERE, help="output folder (default: samples/)")
    out_dir = ap.parse_args(argv).out
    out_dir.mkdir(parents=True, exist_ok=True)
    w = Warc()

    # warcinfo
    info = (
        "isPartOf: warcsift-samples\r\n"
        "publisher: warcsift project (synthetic sample, every page written for it)\r\n"
        "description: Hand-written pages laid out as a Common Crawl WARC file, for warcsift's tests\r\n"
        "operator: warcsift developers\r\n"
        "hostname: sample-builder\r\n"
        "software: samples/make_samples.py (Python standard library)\r\n"
        "robots: not checked (no crawl took place)\r\n"
        "format: WARC File Format 1.0\r\n"
        "conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.0/\r\n"
    ).encode("utf-8")
    w.add(warc_headers("warcinfo", w.warcinfo_id, "2024-02-21T06:10:03Z", len(info), "application/warc-fields",
                       extra=[("WARC-Filename", WARC_NAME)]) + [("WARC-Block-Digest", sha1_b32(info))],
          info, "file header")

    expected_pages = []
    ip_counter = iter(range(10, 250))

    def fetch(name, date, uri, status_line, headers, body, *, payload_type="text/html", note="",
              metadata=None, extra_warc=(), truncated=None, accept=None, expect=None,
              protocol=None):
        """request + response (+ metadata) for one URL, all dated `date`. headers: the HTTP
        response headers, written as given (Content-Length included)."""
        req_id, resp_id = rid(name + "/request"), rid(name + "/response")
        ip = f"203.0.113.{next(ip_counter)}"
        req = request_block(uri, accept) if accept else request_block(uri)
        proto = [("WARC-Protocol", p) for p in (protocol or [])]
        w.add(warc_headers("request", req_id, date, len(req), "application/http; msgtype=request", uri,
                           extra=[("WARC-IP-Address", ip)] + proto)
              + [("WARC-Block-Digest", sha1_b32(req))], req, "request for " + name)
        head, payload = response_block(status_line, headers, body)
        block = head + payload
        extra = [("WARC-Concurrent-To", req_id), ("WARC-IP-Address", ip)] + proto + list(extra_warc)
        tail = [("WARC-Payload-Digest", sha1_b32(payload)), ("WARC-Block-Digest", sha1_b32(block))]
        if truncated:
            tail.append(("WARC-Truncated", truncated))
        if payload_type:
            tail.append(("WARC-Identified-Payload-Type", payload_type))
        w.add(warc_headers("response", resp_id, date, len(block), "application/http; msgtype=response",
                           uri, extra=extra) + tail, block, note)
        if metadata is not None:
            meta = metadata.encode("utf-8")
            w.add(warc_headers("metadata", rid(name + "/metadata"), date, len(meta), "application/warc-fields",
                               uri, extra=[("WARC-Concurrent-To", resp_id)])
                  + [("WARC-Block-Digest", sha1_b32(meta))], meta, "metadata for " + name)
        if expect is not None:
            expect = dict(expect)
            expected_pages.append({"name": name, "warc_type": "response", "url": uri, "record_id": resp_id,
                                   **expect})
        return resp_id, date, payload

    def std_headers(date, ctype, length, server="nginx", extra=()):
        return [("Date", http_date(date)), ("Server", server), ("Content-Type", ctype),
                ("Content-Length", str(length))] + list(extra)

    # 1. news article. Modern Common Crawl style: the payload was stored decoded and the
    # original Content-Encoding / Content-Length are kept under X-Crawler- names.
    news = NEWS_HTML.encode("utf-8")
    fetch("news", "2024-02-21T06:10:17Z", "https://www.harbourtimes.example.com/news/2024/02/ferry-service-restored",
          "HTTP/1.1 200 OK",
          [("Date", http_date("2024-02-21T06:10:17Z")), ("Content-Type", "text/html; charset=utf-8"),
           ("X-Crawler-Content-Length", str(len(gz(news)))), ("Content-Length", str(len(news))),
           ("Connection", "keep-alive"), ("Cache-Control", "max-age=60, public"),
           ("Set-Cookie", "ht_session=4f1c2a9e; Path=/; Secure; HttpOnly"),
           ("Set-Cookie", "ht_ab=b; Path=/; Max-Age=2592000"),
           ("X-Crawler-Content-Encoding", "gzip"), ("Vary", "Accept-Encoding"), ("X-Cache", "HIT")],
          news, note="news article, nav/ads/iframe/cookie banner/comments/footer",
          protocol=["h2", "tls/1.3"],
          metadata=("fetchTimeMs: 212\r\ncharset-detected: UTF-8\r\n"
                    'languages-cld2: {"reliable":true,"text-bytes":3015,"languages":[{"code":"en",'
                    '"code-iso-639-3":"eng","text-covered":0.99,"score":948.0,"name":"ENGLISH"}]}\r\n'),
          expect={"charset": "UTF-8", "lang": "en",
                  "title": "Ferry service to Inishmore restored after three-week storm closure | The Harbour Times",
                  "must_contain": [
                      "Passenger ferries to Inishmore will resume a full timetable from Wednesday morning, ending a closure that left the island without a scheduled sailing for more than three weeks.",
                      "The pier at Kilronan was badly damaged on the night of 28 January, when storm-force winds drove waves over the harbour wall and tore away a section of the loading ramp.",
                      "\u201cThe ramp has been rebuilt and tested with a fully loaded vessel, and we are satisfied that it\u2019s ready for passengers.\u201d",
                  ],
                  "must_not_contain": [
                      "We use cookies to personalise content and ads",
                      "The Harbour Times Media Group Ltd. All rights reserved.",
                      "Sign in to your account",
                      "Storm Isha leaves trail of damage along the west coast",
                      "window.dataLayer",
                  ]})

    # 2. forum thread
    forum = FORUM_HTML.encode("utf-8")
    fetch("forum", "2024-02-21T06:10:29Z", "https://forum.thecrumb.example.org/viewtopic.php?f=7&t=48213",
          "HTTP/1.1 200 OK", std_headers("2024-02-21T06:10:29Z", "text/html; charset=UTF-8", len(forum), server="Apache",
                                         extra=[("X-Powered-By", "PHP/8.1.27"), ("Pragma", "no-cache")]),
          forum, note="forum thread, 4 posts with signatures",
          expect={"charset": "UTF-8", "lang": "en",
                  "must_contain": [
                      "For the last two days it has smelled sharply of acetone, almost exactly like nail polish remover.",
                      "Perfectly normal, and nothing is ruined. The acetone smell means the yeast and bacteria have eaten through their food and are hungry.",
                      "two feeds a day with the smaller amount of old starter fixed it completely.",
                  ],
                  "must_not_contain": [
                      "Forum Software \u00a9 phpBB Limited",
                      "Home bakers helping home bakers since 2006",
                      "Delete cookies",
                  ],
                  # kept by trafilatura, resiliparse and readability alike: sits inside the page body
                  "should_not_contain": ["Users browsing this forum: No registered users and 14 guests"]})

    # 3. product page (no WARC-Identified-Payload-Type: not every CC record has one)
    product = PRODUCT_HTML.encode("utf-8")
    fetch("product", "2024-02-21T06:10:41Z", "https://shop.summitoutfitters.example.com/products/ridgeline-45l-trekking-backpack?variant=4419",
          "HTTP/1.1 200 OK", std_headers("2024-02-21T06:10:41Z", "text/html; charset=utf-8", len(product),
                                         server="cloudflare",
                                         extra=[("CF-Cache-Status", "DYNAMIC"), ("X-Shopid", "58213")]),
          product, payload_type=None, note="product page, no WARC-Identified-Payload-Type",
          metadata="fetchTimeMs: 388\r\ncharset-detected: UTF-8\r\n",
          expect={"charset": "UTF-8", "lang": "en",
                  "must_contain": [
                      "The Ridgeline 45L is built for multi-day hikes where every gram counts but comfort still matters.",
                      "The main compartment opens from the top and through a full-length side zip, which means you can reach the sleeping bag at the bottom without unpacking everything else.",
                  ],
                  "must_not_contain": [
                      "Sign up for 10% off your first order",
                      "Track your order",
                  ],
                  "should_not_contain": ["Free shipping on orders over $75"]})

    # 4. one-line blog post
    one_line = "".join(ONE_LINE_PARTS).encode("utf-8")
    assert b"\n" not in one_line and b"\r" not in one_line
    fetch("one-line-blog", "2024-02-21T06:10:55Z", "https://buildfarm.example.dev/2024/01/profiling-our-static-site-generator/",
          "HTTP/1.1 200 OK", std_headers("2024-02-21T06:10:55Z", "text/html; charset=utf-8", len(one_line),
                                         server="GitHub.com", extra=[("Access-Control-Allow-Origin", "*")]),
          one_line, note="blog post, whole HTML on one line",
          expect={"charset": "UTF-8", "lang": "en",
                  "must_contain": [
                      "I was wrong. The first flame graph showed that more than half of the time went into a single function that resolved relative links, and it was called once for every link on every page.",
                      "Replacing the list with a hash set of page paths took the link check from three and a half minutes to under two seconds.",
                      "Keying the cache on the file\u2019s content hash instead of its path brought a full rebuild down to fifty-one seconds, faster than it had been a year ago.",
                  ],
                  "must_not_contain": [
                      "Browse by tag",
                      "Content licensed under CC BY 4.0 unless noted otherwise.",
                      "_paq.push",
                  ]})

    # 5. windows-1252, declared in the HTTP header only
    cp = check_1252(CP1252_HTML)
    fetch("windows-1252", "2024-02-21T06:11:03Z", "http://www.stadtanzeiger-freiburg.example.de/lokales/2024/02/wochenmarkt-oeffnungszeiten.html",
          "HTTP/1.1 200 OK", std_headers("2024-02-21T06:11:03Z", "text/html; charset=windows-1252", len(cp),
                                         server="Apache/2.4.38 (Debian)",
                                         extra=[("Last-Modified", "Mon, 19 Feb 2024 09:12:44 GMT"),
                                                ("ETag", '"1a2b-61a8c0e4b2f00"'), ("Accept-Ranges", "bytes")]),
          cp, note="German page in windows-1252 (HTTP header charset)",
          metadata="fetchTimeMs: 95\r\ncharset-detected: windows-1252\r\n",
          expect={"charset": "windows-1252", "lang": "de",
                  "must_contain": [
                      "Der Wochenmarkt auf dem Münsterplatz öffnet ab dem 4. März bereits um 7 Uhr statt wie bisher um 7.30 Uhr.",
                      "„Viele Berufstätige wollen vor der Arbeit einkaufen“, sagte Marktmeisterin Renée Kößler.",
                      "zahlt künftig 2,40 € pro laufendem Meter und Markttag – zehn Cent mehr als bisher.",
                  ],
                  "must_not_contain": [
                      "Kleinanzeigen aufgeben",
                      "Jetzt abonnieren – nur 9,90 € im Monat",
                  ],
                  "should_not_contain": ["© 2024 Stadtanzeiger Verlag GmbH", "Fasnet-Bilanz: Ruhiger Umzug trotz Regen"]})

    # 6. Shift_JIS, declared only in <meta>; HTTP Content-Type has no charset
    sj = check_sjis(SJIS_HTML)
    fetch("shift_jis", "2024-02-21T06:11:17Z", "https://tabikura.example.jp/2024/03/kyoto-wagashi/",
          "HTTP/1.1 200 OK", std_headers("2024-02-21T06:11:17Z", "text/html", len(sj), server="Apache"),
          sj, note="Japanese page in Shift_JIS (`<meta charset>` only)",
          expect={"charset": "Shift_JIS", "lang": "ja",
                  "must_contain": [
                      "三月の初め、京都の北の方にある静かな住宅街を歩いていると、小さな和菓子屋を見つけました。",
                      "店主のおばあさんによると、このお店は五十年以上前から続いているそうです。",
                      "桜餅はほんのりと塩味がきいていて、とてもおいしかったです。",
                  ],
                  "must_not_contain": [
                      "このブログの文章と写真の無断転載を禁止します。",
                      "Copyright (C) 2024",
                      "お問い合わせ",
                  ]})

    # 7. UTF-8, German/French/Chinese, declared in the header and in <meta>
    mix = UTF8_MIX_HTML.encode("utf-8")
    fetch("utf8-multilingual", "2024-02-21T06:11:29Z", "https://www.kulturforum-basel.example.ch/de/kulturwoche-2024",
          "HTTP/1.1 200 OK", std_headers("2024-02-21T06:11:29Z", "text/html; charset=UTF-8", len(mix),
                                         server="nginx/1.24.0", extra=[("Content-Language", "de")]),
          mix, note="German/French/Chinese page, UTF-8 declared",
          expect={"charset": "UTF-8", "lang": "de",
                  "must_contain": [
                      "Zur Eröffnung spielt das Ensemble „Seidenstraße“ Werke für Guqin und Streichquartett.",
                      "Les ateliers de calligraphie du jeudi sont ouverts aux débutants, mais l’inscription préalable est obligatoire.",
                      "二〇二四年欧中文化周将于五月十二日至十八日在巴塞尔举行。",
                  ],
                  "must_not_contain": [
                      "Veranstaltungskalender",
                      "Gefördert vom Kanton Basel-Stadt.",
                      "Rheingasse 17",
                  ]})

    # 8. wrong declared charset: UTF-8 bytes, header says iso-8859-1, no <meta>
    wrong = WRONG_CHARSET_HTML.encode("utf-8")
    fetch("wrong-charset", "2024-02-21T06:11:41Z", "http://www.cuisine-grand-mere.example.fr/desserts/tarte-tatin.html",
          "HTTP/1.1 200", std_headers("2024-02-21T06:11:41Z", "text/html; charset=iso-8859-1", len(wrong),
                                      server="Apache/2.2.22"),
          wrong, note="UTF-8 bytes declared iso-8859-1 (status line without reason phrase)",
          expect={"charset": "UTF-8", "declared_charset": "iso-8859-1", "lang": "fr",
                  "must_contain": [
                      "La tarte Tatin est née, dit-on, d’une erreur : l’une des sœurs Tatin aurait oublié de garnir le moule de pâte avant d’y mettre les pommes.",
                      "Choisissez des pommes qui se tiennent à la cuisson, comme la reine des reinettes ou la boskoop.",
                      "Servez-la tiède, avec une cuillerée de crème fraîche épaisse.",
                  ],
                  "must_not_contain": [
                      "Desserts et pâtisseries",
                      "Écrivez-nous",
                      "Ã©",
                  ],
                  "should_not_contain": ["Tous droits réservés © 2024 Cuisine de grand-mère"]})

    # 9. Transfer-Encoding: chunked, several chunks; one cut falls inside the 2-byte 'é' of café
    plain = CHUNKED_HTML.encode("utf-8")
    cafe = plain.index("caf\u00e9".encode("utf-8")) + 4  # between the two bytes of é
    cuts = [700, 1300, cafe, cafe + 400]
    assert cuts == sorted(cuts) and cuts[-1] < len(plain)
    chunked = chunk(plain, cuts, upper_at=0)  # 700 = 0x2BC
    fetch("chunked", "2024-02-21T06:11:55Z", "https://www.westfield.example.gov.uk/news/library-opening-hours-extended",
          "HTTP/1.1 200 OK",
          [("Date", http_date("2024-02-21T06:11:55Z")), ("Server", "Microsoft-IIS/10.0"),
           ("Content-Type", "text/html; charset=utf-8"), ("Transfer-Encoding", "chunked"),
           ("X-Frame-Options", "SAMEORIGIN")],
          chunked, note="Transfer-Encoding: chunked, 5 chunks + last-chunk",
          expect={"charset": "UTF-8", "lang": "en", "http_transfer_encoding": "chunked",
                  "must_contain": [
                      "From 1 March, the central library on Market Street will stay open until 8pm on weekdays, two hours later than at present.",
                      "The caf\u00e9 on the ground floor of the central library will keep its current hours.",
                      "Residents can give feedback on the trial at any library desk or by completing the online survey, which closes on 31 August.",
                  ],
                  "must_not_contain": [
                      "Bins and recycling",
                      "Accessibility statement",
                      "Town Hall, Market Street, Westfield WF1 2AB.",
                  ]})

    # 10. Content-Encoding: gzip, payload really compressed, Content-Length = compressed size
    zbody = gz(GZIP_HTML.encode("utf-8"))
    fetch("gzip", "2024-02-21T06:12:03Z", "https://everydayscience.example.net/earth/why-two-high-tides-a-day",
          "HTTP/1.1 200 OK", std_headers("2024-02-21T06:12:03Z", "text/html; charset=utf-8", len(zbody),
                                         server="nginx",
                                         extra=[("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding")]),
          zbody, note="Content-Encoding: gzip payload",
          expect={"charset": "UTF-8", "lang": "en", "http_content_encoding": "gzip",
                  "must_contain": [
                      "The Moon\u2019s gravity is strongest on the side of the Earth that faces it and weakest on the far side.",
                      "As the Earth rotates beneath these two bulges, any given stretch of coast passes through both of them, and that is why it sees two high tides a day.",
                  ],
                  "must_not_contain": [
                      "Join 40,000 curious readers.",
                      "Everyday Science Explained is an independent publication.",
                      "Listen to episode one",
                  ]})

    # 11. wiki page with many in-text links
    wiki = WIKI_HTML.encode("utf-8")
    fetch("wiki", "2024-02-21T06:12:17Z", "https://openisles.example.org/wiki/Fastnet_Rock",
          "HTTP/1.1 200 OK", std_headers("2024-02-21T06:12:17Z", "text/html; charset=UTF-8", len(wiki),
                                         server="mw-web.eqiad.main",
                                         extra=[("Content-Language", "en"), ("Last-Modified", "Sat, 03 Feb 2024 11:52:09 GMT")]),
          wiki, note="wiki article, links inside sentences",
          expect={"charset": "UTF-8", "lang": "en",
                  "must_contain": [
                      "is a small clay-slate islet in the Atlantic Ocean and the most southerly point of Ireland.",
                      "Each of its 2,074 dovetailed blocks was cut and fitted together on the mainland at Rock Island before being shipped out to the rock.",
                      "The light was automated in 1989, and the last keepers left the rock in the same year.",
                  ],
                  "must_not_contain": [
                      "This page was last edited on 3 February 2024",
                      "Random article",
                      "Jump to content",
                  ]})

    # 12. short author profile
    author = AUTHOR_HTML.encode("utf-8")
    fetch("author", "2024-02-21T06:12:29Z", "https://www.harbourtimes.example.com/authors/maria-lindqvist",
          "HTTP/1.1 200 OK", std_headers("2024-02-21T06:12:29Z", "text/html; charset=utf-8", len(author)),
          author, note="short page: author profile",
          expect={"charset": "UTF-8", "lang": "en",
                  "must_contain": [
                      "Maria Lindqvist has covered the Aran Islands and the Connemara coast for The Harbour Times since 2017.",
                      "She lives on Inis Me\u00e1in and can usually be reached on the early ferry.",
                  ],
                  "must_not_contain": [
                      "All rights reserved. Registered in Ireland No. 123456.",
                      "Weather and Tides",
                  ]})

    # 13. non-HTML responses: a PNG and a JSON document
    png = tiny_png()
    fetch("png", "2024-02-21T06:12:41Z", "https://www.harbourtimes.example.com/static/img/favicon-16.png",
          "HTTP/1.1 200 OK", std_headers("2024-02-21T06:12:41Z", "image/png", len(png),
                                         extra=[("Cache-Control", "max-age=31536000, immutable")]),
          png, payload_type="image/png", note="non-HTML: 16x16 PNG",
          accept="image/avif,image/webp,*/*")
    js = (json.dumps({"version": 3, "pages": [{"url": "/news/2024/02/ferry-service-restored", "views": 18234},
                                                {"url": "/news/2024/01/storm-isha-damage", "views": 9120}],
                      "generated": "2024-02-21T06:00:00Z"}, indent=2) + "\n").encode("utf-8")
    fetch("json", "2024-02-21T06:12:55Z", "https://www.harbourtimes.example.com/api/most-read.json",
          "HTTP/1.1 200 OK", std_headers("2024-02-21T06:12:55Z", "application/json; charset=utf-8", len(js)),
          js, payload_type="application/json", note="non-HTML: application/json",
          accept="application/json")

    # 14. resource record: an HTML page stored directly, no HTTP envelope
    res = RESOURCE_HTML.encode("utf-8")
    res_uri = "https://docs.tidepool.example.io/3.2/install/debian.html"
    res_id = rid("resource")
    w.add(warc_headers("resource", res_id, "2024-02-21T06:13:03Z", len(res), "text/html", res_uri)
          + [("WARC-Block-Digest", sha1_b32(res)), ("WARC-Payload-Digest", sha1_b32(res)),
             ("WARC-Identified-Payload-Type", "text/html")], res,
          "resource record: text/html stored directly")
    expected_pages.append({
        "name": "resource", "warc_type": "resource", "url": res_uri, "record_id": res_id,
        "charset": "UTF-8", "lang": "en",
        "must_contain": [
            "Tidepool is distributed as a Debian package for the two most recent stable releases of Debian and the current long-term support release of Ubuntu.",
            "Before you begin, make sure that your machine has at least two gigabytes of free memory and that port 8470 is not used by another program.",
        ],
        "must_not_contain": [
            "Python module index",
            "Quick search",
            "Created using Sphinx",
        ]})

    # 15. revisit of the news article (identical payload, headers only)
    news_uri = "https://www.harbourtimes.example.com/news/2024/02/ferry-service-restored?utm_source=rss"
    rv_date = "2024-02-21T06:13:17Z"
    rv_req = request_block(news_uri)
    rv_req_id = rid("revisit/request")
    w.add(warc_headers("request", rv_req_id, rv_date, len(rv_req), "application/http; msgtype=request",
                       news_uri, extra=[("WARC-IP-Address", "203.0.113.10")])
          + [("WARC-Block-Digest", sha1_b32(rv_req))], rv_req, "request for revisit")
    rv_block = ("HTTP/1.1 200 OK\r\nDate: " + http_date(rv_date) + "\r\nContent-Type: text/html; charset=utf-8\r\n"
                f"Content-Length: {len(news)}\r\nCache-Control: max-age=60, public\r\n\r\n").encode("ascii")
    w.add(warc_headers("revisit", rid("revisit"), rv_date, len(rv_block), "application/http; msgtype=response",
                       news_uri, extra=[("WARC-Concurrent-To", rv_req_id), ("WARC-IP-Address", "203.0.113.10")])
          + [("WARC-Payload-Digest", sha1_b32(news)), ("WARC-Block-Digest", sha1_b32(rv_block)),
             ("WARC-Profile", "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest"),
             ("WARC-Refers-To-Target-URI", "https://www.harbourtimes.example.com/news/2024/02/ferry-service-restored"),
             ("WARC-Refers-To-Date", "2024-02-21T06:10:17Z")],
          rv_block, "revisit (identical payload digest), HTTP headers only")

    # 16. truncated response: payload cut at a fixed size; the HTTP Content-Length still
    # gives the full size, as when a crawler stops reading (WARC-Truncated: length).
    full = TRUNCATED_HTML.encode("utf-8")
    cut = full.index(TRUNCATE_MARK.encode()) + 40
    part = full[:cut]
    fetch("truncated", "2024-02-21T06:13:29Z", "https://urbanfutures.example.com/mobility/lyon-traffic-noise-longread",
          "HTTP/1.1 200 OK", std_headers("2024-02-21T06:13:29Z", "text/html; charset=utf-8", len(full),
                                         server="envoy"),
          part, truncated="length", note=f"WARC-Truncated: length ({len(part)} of {len(full)} payload bytes)",
          expect={"charset": "UTF-8", "lang": "en", "truncated": True,
                  "must_contain": [
                      "The change did not come from a single bold decision.",
                      "The cheapest and most effective measure turned out to be speed.",
                      "from 31 per cent in 2014 to 19 per cent in the latest round.",
                  ],
                  "must_not_contain": [
                      "The final chapter of the plan, still under debate",
                      "Become a member",
                      "Climate & Cities",
                  ]})

    data = w.bytes()
    (out_dir / WARC_NAME).write_bytes(data)

    c = w.counts
    html_responses = sum(1 for p in expected_pages if p["warc_type"] == "response")
    responses = c.get("response", 0)
    expected = {
        "file": WARC_NAME,
        "generator": "samples/make_samples.py",
        "matching": "compare after collapsing every run of Unicode whitespace to one space; "
                    "must_contain strings are substrings of the page's extracted main text, "
                    "must_not_contain strings must not occur in it (boilerplate that trafilatura "
                    "removes); should_not_contain is boilerplate that some established extractors "
                    "keep: count it, don't fail on it",
        "counts": {
            "records": len(w.rows),
            "by_type": dict(sorted(c.items())),
            "responses": responses,
            "responses_html": html_responses,
            "pages_kept": len(expected_pages),
            "skipped": {
                "warcinfo": c.get("warcinfo", 0),
                "request": c.get("request", 0),
                "metadata": c.get("metadata", 0),
                "revisit": c.get("revisit", 0),
                "not_html": responses - html_responses,
            },
            "truncated": sum(1 for p in expected_pages if p.get("truncated")),
        },
        "pages": expected_pages,
    }
    assert sum(expected["counts"]["skipped"].values()) + expected["counts"]["pages_kept"] == len(w.rows)
    (out_dir / "expected.json").write_text(json.dumps(expected, indent=2, ensure_ascii=False) + "\n",
                                        encoding="utf-8")

    # Self-check: every MUST string occurs in its page (decoded), every NOT string too
    # (so the boilerplate really is there to remove), and never inside the main content.
    sources = {"news": NEWS_HTML, "forum": FORUM_HTML, "product": PRODUCT_HTML,
               "one-line-blog": "".join(ONE_LINE_PARTS), "windows-1252": CP1252_HTML, "shift_jis": SJIS_HTML,
               "utf8-multilingual": UTF8_MIX_HTML, "wrong-charset": WRONG_CHARSET_HTML,
               "chunked": CHUNKED_HTML, "gzip": GZIP_HTML, "wiki": WIKI_HTML, "author": AUTHOR_HTML,
               "resource": RESOURCE_HTML, "truncated": TRUNCATED_HTML}
    import html as htmlmod
    import re
    for p in expected_pages:
        src = sources[p["name"]]
        if p["name"] == "truncated":
            src = part.decode("utf-8", "ignore")
        text = re.sub(r"\s+", " ", htmlmod.unescape(re.sub(r"<[^>]+>", "", src)))
        for s in p["must_contain"]:
            assert s in text, (p["name"], s)
        for s in p.get("should_not_contain", []):
            assert s in text, (p["name"], "boilerplate string not in page", s)
        for s in p["must_not_contain"]:
            if p["name"] == "wrong-charset" and s == "Ã©":
                continue  # mojibake marker: must not appear at all
            if p["name"] == "truncated" and s.startswith("The final chapter"):
                assert s not in text  # cut off by the truncation
                continue
            assert s in text, (p["name"], "boilerplate string not in page", s)
        size = len(src.encode("utf-8"))
        assert 1000 <= size <= 10_500, (p["name"], size)

    print(f"wrote {out_dir / WARC_NAME}: {len(data)} bytes, {len(w.rows)} records "
          f"({', '.join(f'{k} {v}' for k, v in sorted(c.items()))})")
    print("| # | WARC-Type | WARC-Target-URI | what | record bytes |")
    print("|---|---|---|---|---|")
    for i, t, uri, note, n, _ in w.rows:
        print(f"| {i} | {t} | {uri or '-'} | {note} | {n} |")


if __name__ == "__main__":
    main()
