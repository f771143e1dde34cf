package org.dpdl4j.optim;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** What a logger writes while the capture is open, at the given level and above. */
public final class LogCapture implements AutoCloseable {
    private final Logger logger;
    private final Level before;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    public LogCapture(Class<?> source, Level level) {
        this(source.getName(), level);
    }

    public LogCapture(String name, Level level) {
        logger = (Logger) LoggerFactory.getLogger(name);
        before = logger.getLevel();
        logger.setLevel(level);
        appender.start();
        logger.addAppender(appender);
    }

    /** The formatted messages so far. */
    public List<String> messages() {
        return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    /** Whether a message contains {@code text}. */
    public boolean contains(String text) {
        return messages().stream().anyMatch(m -> m.contains(text));
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setLevel(before);
    }
}
