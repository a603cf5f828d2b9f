#!/usr/bin/perl
# Writes a small MaxMind DB for the tests (Debian's libmaxmind-db-writer-perl):
#   make-mmdb.pl OUT.mmdb NETWORK=CC [NETWORK=registered:CC | NETWORK=none]...
# NETWORK=CC gives the network the record {country: {iso_code: CC}}, as GeoLite2-Country
# and DB-IP's country databases have it; registered:CC only {registered_country: ...};
# none a record without any country. Reserved ranges (127/8, 10/8, ...) are allowed, so
# that loopback and private test addresses can have a country.
use strict;
use warnings;
use MaxMind::DB::Writer::Tree;

my ($out, @networks) = @ARGV;
die "usage: $0 OUT.mmdb NETWORK=CC...\n" unless $out && @networks;
my %types = (country => 'map', registered_country => 'map', iso_code => 'utf8_string', note => 'utf8_string');
my $tree = MaxMind::DB::Writer::Tree->new(
    ip_version => 6,
    record_size => 24,
    database_type => 'biqli-Test-Country',
    languages => ['en'],
    description => { en => 'biqli-edge test countries' },
    map_key_type_callback => sub { $types{ $_[0] } },
    remove_reserved_networks => 0,
    alias_ipv6_to_ipv4 => 1,
);
for my $item (@networks) {
    my ($network, $value) = split /=/, $item, 2;
    my $record;
    if ($value eq 'none') {
        $record = { note => 'no country' };
    } elsif ($value =~ /^registered:(.+)$/) {
        $record = { registered_country => { iso_code => $1 } };
    } else {
        $record = { country => { iso_code => $value } };
    }
    $tree->insert_network($network, $record);
}
open my $fh, '>:raw', "$out.tmp" or die "$out.tmp: $!";
$tree->write_tree($fh);
close $fh or die "$out.tmp: $!";
rename "$out.tmp", $out or die "$out: $!";
