#!/usr/bin/python3
# Regenerates the fixture list of t1200-pull-online.t from the seed thread
# ci/seeds/vmstat-scan-balance-cost.v2.mbox (see README):
#   python3 make-fixtures.py <seed> <outdir>
import re
import sys

seed, out = sys.argv[1], sys.argv[2]
mails = [m for m in re.split(r'^From mboxrd@z Thu Jan  1 00:00:00 1970\n',
                             open(seed).read(), flags=re.M) if m]
cover, p1, p2, fixlet_reply = mails
V2 = '20260713163431.1907337'
V1 = '20260706091200.1402215'
V3 = '20260720101500.2210554'


def header(mail, name, value):
    return re.sub(r'^%s: .*$' % name, '%s: %s' % (name, value), mail,
                  count=1, flags=re.M)


def retag(mail, old, new, prefix, date):
    mail = mail.replace(old, new)
    mail = re.sub(r'^Subject: \[PATCH v2 ', 'Subject: [%s ' % prefix, mail,
                  count=1, flags=re.M)
    return header(mail, 'Date', date)


def write(name, mails):
    with open('%s/%s' % (out, name), 'w') as f:
        for m in mails:
            f.write('From mboxrd@z Thu Jan  1 00:00:00 1970\n' + m)
            if not m.endswith('\n\n'):
                f.write('\n')


# v1: no version tag, a week earlier, patch 2 with one comment line different
v1 = [retag(m, V2, V1, 'PATCH', 'Mon, 06 Jul 2026 02:12:0%d -0700' % i)
      for i, m in enumerate((cover, p1, p2))]
v1[2] = v1[2].replace('+\t * Updated and decayed at prepare_scan_control() time; cost_lock',
                      '+\t * Updated at prepare_scan_control() time; cost_lock')
assert v1[2] != retag(p2, V2, V1, 'PATCH', 'Mon, 06 Jul 2026 02:12:02 -0700')
write('1-v1.mbox', v1)

# v2: the seed's three mails, without the reply that carries the fixlet
write('2-v2.mbox', [cover, p1, p2])

# review: an Acked-by for patch 1, and the seed's fixlet reply to patch 2
ack = '''From: Johannes Weiner <hannes@cmpxchg.org>
Date: Wed, 15 Jul 2026 08:02:11 -0400
Subject: Re: [PATCH v2 1/2] mm/vmstat, mm/memcontrol: add _monotonic vmstat readers
Message-Id: <20260715120211.GA1187@cmpxchg.org>
In-Reply-To: <%s-2-usama.arif@linux.dev>
References: <%s-1-usama.arif@linux.dev> <%s-2-usama.arif@linux.dev>
To: Usama Arif <usama.arif@linux.dev>
Cc: Andrew Morton <akpm@linux-foundation.org>, linux-mm@kvack.org
MIME-Version: 1.0
Content-Type: text/plain; charset=UTF-8
Content-Transfer-Encoding: 8bit

On Mon, Jul 13, 2026 at 09:34:32AM -0700, Usama Arif wrote:
> Add non-clamping siblings that return the underlying state value
> cast to unsigned long:

Makes sense, the clamping is wrong for event counters.

Acked-by: Johannes Weiner <hannes@cmpxchg.org>

''' % (V2, V2, V2)
write('3-review.mbox', [ack, fixlet_reply])

# v3: patch 1 with the Acked-by, patch 2 as in v2, the fixlet folded in as
# patch 3 (a reroll that changed the patch count)
body = fixlet_reply.split('>From 0fd35b49112cc0d689741f04c485283e6dce3326', 1)[1]
fix_body = body.split('\n\n', 1)[1]
fix3 = '''From: Usama Arif <usama.arif@linux.dev>
Date: Mon, 20 Jul 2026 03:15:03 -0700
Subject: [PATCH v3 3/3] mm/vmscan: increment pgreclaim_pageout_* and pgrotate_* for MGLRU
Message-Id: <%s-4-usama.arif@linux.dev>
In-Reply-To: <%s-1-usama.arif@linux.dev>
References: <%s-1-usama.arif@linux.dev>
To: Andrew Morton <akpm@linux-foundation.org>
Cc: Johannes Weiner <hannes@cmpxchg.org>, linux-mm@kvack.org
MIME-Version: 1.0
Content-Type: text/plain; charset=UTF-8
Content-Transfer-Encoding: 8bit

''' % (V3, V3, V3) + fix_body
v3 = [retag(m, V2, V3, 'PATCH v3', 'Mon, 20 Jul 2026 03:15:0%d -0700' % i)
      for i, m in enumerate((cover, p1, p2))]
v3 = [re.sub(r'^(Subject: \[PATCH v3 \d)/2\]', r'\1/3]', m, count=1, flags=re.M)
      for m in v3]
v3[0] = v3[0].replace('\nThis series removes', '\nChanges in v3:\n- fold the MGLRU fixlet in as patch 3\n- patch 1: Acked-by Johannes\n\nThis series removes', 1)
v3[1] = v3[1].replace('Signed-off-by: Usama Arif <usama.arif@linux.dev>\n',
                      'Acked-by: Johannes Weiner <hannes@cmpxchg.org>\nSigned-off-by: Usama Arif <usama.arif@linux.dev>\n', 1)
write('4-v3.mbox', v3 + [fix3])

# v4, incomplete: the cover letter and patch 1 of 3 only (the rest never came)
V4 = '20260727080000.3301876'
v4 = [retag(m, V3, V4, 'PATCH', 'Mon, 27 Jul 2026 01:00:0%d -0700' % i)
      for i, m in enumerate(v3[:2])]
v4 = [m.replace('[PATCH v3 ', '[PATCH v4 ', 1) for m in v4]
write('5-v4-incomplete.mbox', v4)

# series B (the shadow-node seed, argument 3) with a change-id in its cover
# letter, and a v4 whose cover subject was reworded: only the change-id
# finds it
if len(sys.argv) > 3:
    bmails = [m for m in re.split(r'^From mboxrd@z Thu Jan  1 00:00:00 1970\n',
                                  open(sys.argv[3]).read(), flags=re.M) if m]
    CID = 'change-id: 20260828-shadow-budget-5c2e91\n\n'
    assert bmails[0].count('\n-- \n2.53.0\n') == 1
    bmails[0] = bmails[0].replace('\n-- \n2.53.0\n', '\n' + CID + '-- \n2.53.0\n')
    write('6-b-v3.mbox', bmails)
    B3, B4 = '20260904094555.2871043', '20260914031000.1184420'
    heads = [m for m in bmails if re.search(r'^Subject: \[PATCH v3 \d/3\]', m, flags=re.M)]
    assert len(heads) == 4
    b4 = [retag(m, B3, B4, 'PATCH', 'Mon, 14 Sep 2026 11:10:0%d +0800' % i)
          for i, m in enumerate(heads)]
    b4 = [m.replace('[PATCH v3 ', '[PATCH v4 ', 1) for m in b4]
    b4[0] = b4[0].replace('fix the shadow node budget under MGLRU',
                          'count the shadow node budget right under MGLRU', 1)
    write('7-b-v4.mbox', b4)
