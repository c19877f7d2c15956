//! The visitor listeners' sockets: one per visitor thread on each address, all with
//! `SO_REUSEPORT` so the kernel spreads new connections over the threads (see the crate's
//! docs, "Thread per core").

use std::{
    io,
    net::{SocketAddr, ToSocketAddrs},
};

/// `n` listening sockets on one address (the first one's port when the address asks for port
/// 0), all with `SO_REUSEPORT` so the kernel spreads connections over them. The first is bound
/// before it gets `SO_REUSEPORT`: a port held by anyone else is refused, never shared. (Public
/// for the load bench's reference server, which listens as the edge does.)
pub fn bind_group(addr: &str, n: usize) -> io::Result<Vec<std::net::TcpListener>> {
    use socket2::{Domain, Socket, Type};
    let target = addr.to_socket_addrs()?.next().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{addr}: no address to listen on"),
        )
    })?;
    let socket = |addr: SocketAddr, reuse_first: bool| -> io::Result<std::net::TcpListener> {
        let s = Socket::new(Domain::for_address(addr), Type::STREAM, None)?;
        s.set_reuse_address(true)?;
        if reuse_first {
            s.set_reuse_port(true)?;
        }
        s.bind(&addr.into())
            .map_err(|e| io::Error::new(e.kind(), format!("{addr}: {e}")))?;
        s.set_reuse_port(true)?;
        s.set_nonblocking(true)?;
        s.listen(1024)?;
        Ok(s.into())
    };
    let first = socket(target, false)?;
    let bound = first.local_addr()?;
    let mut all = vec![first];
    for _ in 1..n.max(1) {
        all.push(socket(bound, true)?);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use std::{
        io::{Read, Write},
        time::Duration,
    };

    use super::*;

    #[test]
    fn a_listener_group_shares_one_port_and_refuses_a_port_someone_holds() {
        let group = bind_group("127.0.0.1:0", 3).unwrap();
        assert_eq!(group.len(), 3);
        let port = group[0].local_addr().unwrap().port();
        assert!(group.iter().all(|l| l.local_addr().unwrap().port() == port));
        // Connections spread over the group: each socket accepts some of 60.
        let clients: Vec<_> = (0..60)
            .map(|_| std::net::TcpStream::connect(("127.0.0.1", port)).unwrap())
            .collect();
        let mut accepted = vec![0; 3];
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while accepted.iter().sum::<usize>() < clients.len() {
            assert!(
                std::time::Instant::now() < deadline,
                "accepted {accepted:?}"
            );
            for (i, l) in group.iter().enumerate() {
                while let Ok((mut s, _)) = l.accept() {
                    s.set_nonblocking(false).unwrap();
                    s.write_all(b"x").unwrap();
                    accepted[i] += 1;
                }
            }
        }
        assert!(accepted.iter().all(|n| *n > 0), "{accepted:?}");
        for mut c in clients {
            let mut one = [0u8; 1];
            c.read_exact(&mut one).unwrap();
        }
        // Anyone else on that port, this edge or another process, is refused.
        let again = bind_group(&format!("127.0.0.1:{port}"), 2).unwrap_err();
        assert_eq!(again.kind(), io::ErrorKind::AddrInUse, "{again}");
        let plain = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let taken = plain.local_addr().unwrap().to_string();
        assert_eq!(
            bind_group(&taken, 1).unwrap_err().kind(),
            io::ErrorKind::AddrInUse
        );
        assert!(bind_group("no such host name:1", 1).is_err());
    }
}
