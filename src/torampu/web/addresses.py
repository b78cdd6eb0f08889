"""Who a client is, for the limits kept per address: an IPv4 address, or an IPv6 network.

Every per-address bound of the web table (HTTP connections, websockets, new tables, messages,
a spectator's chat, the search workers' turns) is kept under :func:`address_key`. An IPv4 client
is its address. An IPv6 client is its ``/64`` network by default (``--ipv6-prefix``): a home or
a hosting line is handed a whole /64, so one machine can speak from 2**64 addresses, and keyed by
the full address every per-address bound would be a per-request one. An IPv4 address written as
IPv6 (``::ffff:192.0.2.1``, from a dual-stack socket) is the IPv4 address.

>>> address_key("192.0.2.7")
'192.0.2.7'
>>> address_key("2001:db8:1:2:a:b:c:d")
'2001:db8:1:2::/64'
>>> address_key("2001:db8:1:2:a:b:c:d", 128)
'2001:db8:1:2:a:b:c:d'
>>> address_key("::ffff:192.0.2.7")
'192.0.2.7'
>>> address_key("testclient")  # not an IP address (a test client, a Unix socket): itself
'testclient'
"""

from __future__ import annotations

import hashlib
import ipaddress
from functools import lru_cache
from typing import Final

DEFAULT_IPV6_PREFIX: Final = 64
"""How many leading bits of an IPv6 address name one client (``--ipv6-prefix``)."""


@lru_cache(maxsize=4096)
def address_key(host: str, ipv6_prefix: int = DEFAULT_IPV6_PREFIX) -> str:
    """The key the per-address limits keep ``host`` under (see the module's text)."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])  # a zone index ("fe80::1%eth0") aside
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if ipv6_prefix < 128:
            return str(ipaddress.IPv6Network((ip, ipv6_prefix), strict=False))
    return str(ip)


def check_prefix(ipv6_prefix: int) -> int:
    """``ipv6_prefix`` if it is 1 to 128, else :class:`ValueError` naming the flag.

    >>> check_prefix(0)
    Traceback (most recent call last):
    ...
    ValueError: --ipv6-prefix must be 1 to 128 (bits of an IPv6 address), not 0
    """
    if not 1 <= ipv6_prefix <= 128:
        raise ValueError(
            f"--ipv6-prefix must be 1 to 128 (bits of an IPv6 address), not {ipv6_prefix}"
        )
    return ipv6_prefix


def owner_hash(key: str) -> str:
    """What the database keeps of the address that made a table: a SHA-256 of its key, so the
    address is not stored in clear (an IPv4 address can still be found from it by trying them
    all: the database holds personal data either way).

    >>> len(owner_hash("192.0.2.7")), owner_hash("192.0.2.7") == owner_hash("192.0.2.8")
    (32, False)
    """
    return hashlib.sha256(b"torampu-owner\0" + key.encode()).hexdigest()[:32]
