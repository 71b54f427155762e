package lbsim.cli;

import lbsim.ByteSize;
import picocli.CommandLine;

/** Byte-count options ({@code --queue-bytes 32KiB}): the same units as byte keys in a scenario. */
final class ByteSizeConverter implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        try {
            return ByteSize.parse(value);
        } catch (ByteSize.FormatException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
