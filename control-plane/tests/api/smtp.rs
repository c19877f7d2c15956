//! A minimal SMTP server on loopback that accepts every message and hands it to the test.
//! Test-only: it speaks just enough of RFC 5321 for lettre's client (EHLO, MAIL, RCPT, DATA,
//! QUIT), which is the real client under test.

use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::TcpListener,
    sync::mpsc,
};

pub struct SmtpSink {
    pub url: String,
    pub messages: mpsc::UnboundedReceiver<String>,
}

pub async fn start() -> SmtpSink {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("smtp://{}", listener.local_addr().unwrap());
    let (tx, messages) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let tx = tx.clone();
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 sink ESMTP\r\n").await.ok();
                let mut in_data = false;
                let mut data = String::new();
                while let Ok(Some(line)) = lines.next_line().await {
                    if in_data {
                        if line == "." {
                            in_data = false;
                            tx.send(std::mem::take(&mut data)).ok();
                            write.write_all(b"250 queued\r\n").await.ok();
                        } else {
                            data.push_str(line.strip_prefix('.').unwrap_or(&line));
                            data.push('\n');
                        }
                        continue;
                    }
                    let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
                    let reply: &[u8] = match verb.as_str() {
                        "EHLO" => b"250-sink\r\n250 8BITMIME\r\n",
                        "HELO" | "MAIL" | "RCPT" | "RSET" | "NOOP" => b"250 ok\r\n",
                        "DATA" => {
                            in_data = true;
                            b"354 go ahead\r\n"
                        }
                        "QUIT" => {
                            write.write_all(b"221 bye\r\n").await.ok();
                            break;
                        }
                        _ => b"502 not implemented\r\n",
                    };
                    write.write_all(reply).await.ok();
                }
            });
        }
    });
    SmtpSink { url, messages }
}
