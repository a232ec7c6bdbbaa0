#!/usr/bin/perl
# tests/reports/tap-check.pl FILE N - parse FILE with TAP::Parser (what prove
# uses): no parse errors, the plan is N, every "not ok" has a YAML diagnostic
# block that parses, with a message.  Exit 0 when all holds.
use strict;
use warnings;
use TAP::Parser;

my ($file, $want) = @ARGV;
open(my $fh, '<', $file) or die "$file: $!";
my $tap = do { local $/; <$fh> };
my $p = TAP::Parser->new({ tap => $tap, version => 13 });
my ($tests, $notok, $yaml_ok, $last_notok) = (0, 0, 0, 0);
while (my $r = $p->next) {
	if ($r->is_test) {
		$tests++;
		$last_notok = !$r->is_ok;
		$notok++ if $last_notok;
	} elsif ($r->is_yaml) {
		my $d = $r->data;
		$yaml_ok++ if $last_notok && ref $d eq 'HASH' && defined $d->{message} && ref $d->{data} eq 'HASH';
		$last_notok = 0;
	}
}
my @errors = $p->parse_errors;
print "parse error: $_\n" for @errors;
print "tests $tests (plan $want), not ok $notok, with YAML diagnostics $yaml_ok\n";
exit(!@errors && $tests == $want && $p->plan eq "1..$want" && $yaml_ok == $notok ? 0 : 1);
