# Cut and reshape the mails of an mboxrd file (mails start at "From mboxrd@z").

# drop_mail ID <in >out: every mail but the one with Message-ID <ID>
drop_mail() {
	awk -v id="$1" '
	function flush() { if (buf != "" && !hit) printf "%s", buf; buf = ""; hit = 0 }
	/^From mboxrd@z / { flush() }
	{ buf = buf $0 "\n"; if (tolower($0) ~ "^message-id: *<" tolower(id) ">") hit = 1 }
	END { flush() }'
}

# only_mail ID <in >out: the mail with Message-ID <ID> alone
only_mail() {
	awk -v id="$1" '
	function flush() { if (buf != "" && hit) printf "%s", buf; buf = ""; hit = 0 }
	/^From mboxrd@z / { flush() }
	{ buf = buf $0 "\n"; if (tolower($0) ~ "^message-id: *<" tolower(id) ">") hit = 1 }
	END { flush() }'
}

# no_in_reply_to ID <in >out: the mail with Message-ID <ID> loses its
# In-Reply-To header (and its continuation lines); References stay
no_in_reply_to() {
	awk -v id="$1" '
	function flush(   i, skip, head) {
		head = 1
		for (i = 1; i <= n; i++) {
			if (head && line[i] == "") head = 0
			if (hit && head && tolower(line[i]) ~ /^in-reply-to:/) { skip = 1; continue }
			if (skip && line[i] ~ /^[ \t]/) continue
			skip = 0
			print line[i]
		}
		n = 0; hit = 0
	}
	/^From mboxrd@z / { flush() }
	{ line[++n] = $0; if (tolower($0) ~ "^message-id: *<" tolower(id) ">") hit = 1 }
	END { flush() }'
}
